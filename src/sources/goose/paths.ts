// Owns where Goose keeps its sessions: `<data dir>/sessions/`, the data dir being `$GOOSE_PATH_ROOT/data`,
// else `$XDG_DATA_HOME/goose` or `~/.local/share/goose` (Linux and macOS: Goose uses the XDG layout on
// both), `%APPDATA%\Block\goose\data` on Windows. `sessions.db` (SQLite, since late 2025) holds every
// session; before it, one `<session id>.jsonl` per session, which Goose imports into the database.
import { basename, dirname, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

export const DB_NAME = 'sessions.db';

export function gooseDefaultRoots(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  if (env.GOOSE_PATH_ROOT?.startsWith('/') || /^[A-Za-z]:[\\/]/.test(env.GOOSE_PATH_ROOT ?? ''))
    return [join(env.GOOSE_PATH_ROOT!, 'data', 'sessions')];
  const home = homeDir(env);
  if (platform === 'win32')
    return [join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Block', 'goose', 'data', 'sessions')];
  return [join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'goose', 'sessions')];
}

const inSessions = (dir: string) => basename(dir) === 'sessions';
export const isGooseDbName = (path: string) => basename(path) === DB_NAME && inSessions(dirname(path));
export const isGooseJsonlName = (path: string) => path.endsWith('.jsonl') && inSessions(dirname(path));

/** `sessions.db` and the older `<id>.jsonl` files of a `sessions` folder (the root, or the data folder). */
export function discoverGooseSessions(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, {
    maxDepth: 1,
    onSkippedMatch: onSkipped,
    match: (name, dir) => isGooseDbName(join(dir, name)) || isGooseJsonlName(join(dir, name)),
  });
}

/** A legacy session's first line: `{"working_dir": …, "description": …}` metadata, or a message. */
const JSONL_HEAD =
  /^\{\s*"(working_dir|description|id|schedule_id)"\s*:|^\{\s*"role"\s*:\s*"(user|assistant)"\s*,\s*"created"/;

export function detectGoose(path: string, head: string): boolean {
  if (isGooseDbName(path)) return head.startsWith('SQLite format 3');
  const first = head.replace(/^\uFEFF/, '').split('\n', 1)[0] ?? '';
  return isGooseJsonlName(path) && JSONL_HEAD.test(first) && /"working_dir"|"created"\s*:/.test(head);
}
