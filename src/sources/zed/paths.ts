// Owns where Zed keeps its agent threads: `threads/threads.db` in Zed's data folder (`$XDG_DATA_HOME/zed`
// or `~/.local/share/zed` on Linux, `~/Library/Application Support/Zed` on macOS, `%LOCALAPPDATA%\Zed` on
// Windows).
import { basename, dirname, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

export const DB_NAME = 'threads.db';

export function zedDefaultRoots(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  const home = homeDir(env);
  if (platform === 'darwin') return [join(home, 'Library', 'Application Support', 'Zed', 'threads')];
  if (platform === 'win32') return [join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'Zed', 'threads')];
  return [join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'zed', 'threads')];
}

const isThreadsDb = (name: string, dir: string) => name === DB_NAME && basename(dir) === 'threads';

/** `threads/threads.db` in the root (a `threads` folder, or Zed's data folder above it). */
export function discoverZedDbs(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, { maxDepth: 1, match: isThreadsDb, onSkippedMatch: onSkipped });
}

export function detectZedDb(path: string, head: string): boolean {
  return isThreadsDb(basename(path), dirname(path)) && head.startsWith('SQLite format 3');
}
