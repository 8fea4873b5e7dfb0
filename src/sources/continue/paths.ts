// Owns where Continue keeps its chat sessions: `<global dir>/sessions/<session id>.json`, the global dir
// being `$CONTINUE_GLOBAL_DIR`, else `~/.continue` (on Windows `%USERPROFILE%\.continue`). `sessions.json`
// beside them is the session list (titles and creation times).
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';
import { isObject, str } from '../json-guards.js';

export const INDEX_FILE = 'sessions.json';
const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/i;

export function continueDefaultRoots(env: Env): string[] {
  return [join(env.CONTINUE_GLOBAL_DIR || join(homeDir(env), '.continue'), 'sessions')];
}

export function isContinueSession(path: string): boolean {
  return SESSION_FILE.test(basename(path)) && basename(dirname(path)) === 'sessions';
}

export function discoverContinueSessions(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, { onSkippedMatch: onSkipped, maxDepth: 2, match: (n, d) => isContinueSession(join(d, n)) });
}

/** The creation time `sessions.json` beside a session records for it (ISO), if any. */
export function continueCreatedAt(path: string, sessionId: string): string | undefined {
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(join(dirname(path), INDEX_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  const row = Array.isArray(list) ? list.find((r) => isObject(r) && r.sessionId === sessionId) : undefined;
  const ms = isObject(row) ? Number(str(row.dateCreated) ?? row.dateCreated) : Number.NaN;
  return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : undefined;
}
