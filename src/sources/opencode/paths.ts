// Owns where OpenCode keeps its data ($XDG_DATA_HOME/opencode, else ~/.local/share/opencode): the
// SQLite store `opencode.db`, or on builds before it the JSON tree under `storage/`.
import { readdirSync, statSync } from 'node:fs';
import { notRegularFileError } from '../../shared/regular-file.js';
import { basename, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';

/** `opencode.db`, or a release channel's `opencode-<channel>.db` (e.g. opencode-beta.db). */
export const DB_FILE = /^opencode(?:-[\w.]+)?\.db$/;
const LEGACY_SESSION = /[\\/]storage[\\/]session[\\/][^\\/]+[\\/][^\\/]+\.json$/;

export function opencodeDefaultRoots(env: Env): string[] {
  const base = env.XDG_DATA_HOME || join(homeDir(env), '.local', 'share');
  return [join(base, 'opencode')];
}

/** storage/message/…, storage/part/… and the older storage/session/message/…, storage/session/part/…. */
const MESSAGE_OR_PART = /[\\/]storage[\\/](?:session[\\/])?(?:message|part)[\\/].+\.json$/;

export const MESSAGE_OR_PART_REASON =
  'OpenCode message or part file: read with its session (storage/session/<group>/<session id>.json)';

export function explainOpenCodeFile(path: string): string | undefined {
  return MESSAGE_OR_PART.test(path) ? MESSAGE_OR_PART_REASON : undefined;
}

export function isLegacySessionPath(path: string): boolean {
  return LEGACY_SESSION.test(path);
}

export function detectOpenCodeFile(path: string, head: string): boolean {
  if (DB_FILE.test(basename(path))) return head.startsWith('SQLite format 3');
  return isLegacySessionPath(path) && head.includes('"id"');
}

/**
 * The databases when present; otherwise the legacy session files. OpenCode migrates the JSON tree into
 * the database and leaves it behind, so reading both would store every migrated session twice.
 */
export function discoverOpenCodeSources(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  // A FIFO named opencode.db would block the SQLite open: only regular files are returned.
  const regular = (path: string): boolean => {
    try {
      const stat = statSync(path);
      if (stat.isFile()) return true;
      onSkipped?.(path, notRegularFileError(path, stat).message);
    } catch (error) {
      // Vanished since listed: passed over. Anything else (a symlink loop, ...): reading it reports why.
      return (error as NodeJS.ErrnoException).code !== 'ENOENT';
    }
    return false;
  };
  let names: string[] = [];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const dbs = names
    .filter((n) => DB_FILE.test(n))
    .sort()
    .map((n) => join(root, n))
    .filter(regular);
  if (dbs.length > 0) return dbs;
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
        if (name.endsWith('.json') && regular(join(sessions, group, name))) found.push(join(sessions, group, name));
      }
    } catch {
      // not a folder
    }
  }
  return found;
}
