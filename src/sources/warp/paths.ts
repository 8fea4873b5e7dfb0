// Owns where Warp keeps its state database `warp.sqlite`: `$XDG_STATE_HOME/warp-terminal` or
// `~/.local/state/warp-terminal` (Linux), the `dev.warp.Warp-Stable` folder of Warp's group container
// (macOS), `%LOCALAPPDATA%\warp\Warp\data` (Windows).
import { basename, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

export const DB_NAME = 'warp.sqlite';

export function warpDefaultRoots(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  const home = homeDir(env);
  if (platform === 'darwin') {
    const group = join(home, 'Library', 'Group Containers', '2BBY89MBSN.dev.warp', 'Library', 'Application Support');
    return [join(group, 'dev.warp.Warp-Stable'), join(home, 'Library', 'Application Support', 'dev.warp.Warp-Stable')];
  }
  if (platform === 'win32') return [join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'warp', 'Warp', 'data')];
  return [join(env.XDG_STATE_HOME || join(home, '.local', 'state'), 'warp-terminal')];
}

export function discoverWarpDbs(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, { maxDepth: 0, match: (name) => name === DB_NAME, onSkippedMatch: onSkipped });
}

export function detectWarpDb(path: string, head: string): boolean {
  return basename(path) === DB_NAME && head.startsWith('SQLite format 3');
}
