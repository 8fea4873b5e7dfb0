// Owns where Crush keeps its sessions: one `crush.db` per project, in the project's data directory
// (`<project>/.crush/` unless configured), each listed in `projects.json` of Crush's global data folder
// (`$CRUSH_GLOBAL_DATA`, else `$XDG_DATA_HOME/crush`, else `%LOCALAPPDATA%\crush` on Windows, else
// `~/.local/share/crush`).
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';
import { isObject, str } from '../json-guards.js';

export const DB_NAME = 'crush.db';

export function crushDefaultRoots(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  if (env.CRUSH_GLOBAL_DATA) return [env.CRUSH_GLOBAL_DATA];
  if (env.XDG_DATA_HOME) return [join(env.XDG_DATA_HOME, 'crush')];
  if (platform === 'win32') return [join(env.LOCALAPPDATA || join(homeDir(env), 'AppData', 'Local'), 'crush')];
  return [join(homeDir(env), '.local', 'share', 'crush')];
}

/** The databases of the projects `projects.json` (in a global data folder) lists. */
function registeredDbs(root: string): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(join(root, 'projects.json'), 'utf8'));
  } catch {
    return [];
  }
  const projects = isObject(doc) && Array.isArray(doc.projects) ? doc.projects.filter(isObject) : [];
  return projects.flatMap((p) => {
    const dataDir = str(p.data_dir);
    const path = str(p.path);
    const dir = dataDir && isAbsolute(dataDir) ? dataDir : path ? join(path, dataDir || '.crush') : undefined;
    if (!dir) return [];
    try {
      return statSync(join(dir, DB_NAME)).isFile() ? [join(dir, DB_NAME)] : [];
    } catch {
      return [];
    }
  });
}

/** `crush.db` in the root or a `.crush` folder below it, and those of the projects Crush registered there. */
export function discoverCrushDbs(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  const here = findFiles(root, {
    maxDepth: 1,
    match: (name, dir, depth) => name === DB_NAME && (depth === 0 || basename(dir) === '.crush'),
    onSkippedMatch: onSkipped,
  });
  return [...new Set([...here, ...registeredDbs(root)])].sort();
}

export function detectCrushDb(path: string, head: string): boolean {
  return basename(path) === DB_NAME && head.startsWith('SQLite format 3');
}

/** `<project>/.crush/crush.db` → the project; a configured data folder names none. */
export function projectOfDb(path: string): string | undefined {
  const dir = dirname(path);
  return basename(dir) === '.crush' ? dirname(dir) : undefined;
}
