// Owns where OpenCode keeps its data ($XDG_DATA_HOME/opencode, else ~/.local/share/opencode): the
// SQLite store `opencode.db`, or on builds before it the JSON tree under `storage/`.
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';

export const DB_NAME = 'opencode.db';
const LEGACY_SESSION = /[\\/]storage[\\/]session[\\/][^\\/]+[\\/][^\\/]+\.json$/;

export function opencodeDefaultRoots(env: Env): string[] {
  const base = env.XDG_DATA_HOME || join(homeDir(env), '.local', 'share');
  return [join(base, 'opencode')];
}

export function isLegacySessionPath(path: string): boolean {
  return LEGACY_SESSION.test(path);
}

export function detectOpenCodeFile(path: string, head: string): boolean {
  if (basename(path) === DB_NAME) return head.startsWith('SQLite format 3');
  return isLegacySessionPath(path) && head.includes('"id"');
}

/**
 * The database when present; otherwise the legacy session files. OpenCode migrates the JSON tree into
 * the database and leaves it behind, so reading both would store every migrated session twice.
 */
export function discoverOpenCodeSources(root: string): string[] {
  const db = join(root, DB_NAME);
  if (existsSync(db)) return [db];
  const sessions = join(root, 'storage', 'session');
  const found: string[] = [];
  let groups: string[];
  try {
    groups = readdirSync(sessions);
  } catch {
    return [];
  }
  for (const group of groups.sort()) {
    try {
      for (const name of readdirSync(join(sessions, group)).sort()) {
        if (name.endsWith('.json')) found.push(join(sessions, group, name));
      }
    } catch {
      // not a folder
    }
  }
  return found;
}
