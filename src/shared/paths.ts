// Owns where strata keeps its data: STRATA_HOME, else $XDG_DATA_HOME/strata, else ~/.local/share/strata.
import { homedir } from 'node:os';
import { join } from 'node:path';

export type Env = Record<string, string | undefined>;

export function dataDir(env: Env = process.env): string {
  if (env.STRATA_HOME) return env.STRATA_HOME;
  if (env.XDG_DATA_HOME) return join(env.XDG_DATA_HOME, 'strata');
  return join(env.HOME || homedir(), '.local', 'share', 'strata');
}

export function storePath(env: Env = process.env): string {
  return join(dataDir(env), 'strata.db');
}

export function homeDir(env: Env = process.env): string {
  return env.HOME || homedir();
}

/** Shows a path with the home directory as `~`. */
export function tildify(path: string, env: Env = process.env): string {
  const home = homeDir(env);
  return path === home ? '~' : path.startsWith(home + '/') ? '~' + path.slice(home.length) : path;
}
