// Owns where Cursor keeps its chats: `User/globalStorage/state.vscdb` (the `cursorDiskKV` table) under
// `~/.config/Cursor` (Linux), `~/Library/Application Support/Cursor` (macOS) or `%APPDATA%\Cursor`
// (Windows); `User/workspaceStorage/<hash>/` names each workspace's folder and, before Cursor put it in the
// composer itself, which composers belong to it.
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

export const DB_NAME = 'state.vscdb';

export function cursorDefaultRoots(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  const home = homeDir(env);
  const base =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? env.APPDATA || join(home, 'AppData', 'Roaming')
        : env.XDG_CONFIG_HOME || join(home, '.config');
  return [join(base, 'Cursor', 'User')];
}

const inWorkspace = (dir: string) => basename(dirname(dir)) === 'workspaceStorage';
const isStateDb = (name: string, dir: string) =>
  name === DB_NAME && (basename(dir) === 'globalStorage' || inWorkspace(dir));

export const isWorkspaceDb = (path: string): boolean => inWorkspace(dirname(path));

/** The global and workspace databases below a Cursor `User` folder (or the `globalStorage` folder itself). */
export function discoverCursorDbs(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, { maxDepth: 2, match: isStateDb, onSkippedMatch: onSkipped });
}

/** A `state.vscdb` with a SQLite header; a VS Code database without Cursor's data says so when read. */
export function detectCursorDb(path: string, head: string): boolean {
  return isStateDb(basename(path), dirname(path)) && head.startsWith('SQLite format 3');
}

export function explainCursorFile(path: string): string | undefined {
  if (basename(path) === 'workspace.json' && inWorkspace(dirname(path)))
    return 'editor workspace folder name: read with the workspace state.vscdb beside it';
  return undefined;
}

/** The folder a `workspace.json` names (`folder`, a file URI), if any. */
export function workspaceFolder(workspaceDir: string): string | undefined {
  try {
    const doc = JSON.parse(readFileSync(join(workspaceDir, 'workspace.json'), 'utf8')) as { folder?: unknown };
    if (typeof doc.folder !== 'string') return undefined;
    return doc.folder.startsWith('file://') ? fileURLToPath(doc.folder) : doc.folder;
  } catch {
    return undefined;
  }
}

/** Each workspace folder beside the global database: `<User>/workspaceStorage/<hash>/`. */
export function workspaceDirs(globalDb: string): string[] {
  const storage = join(dirname(dirname(globalDb)), 'workspaceStorage');
  return findFiles(storage, { maxDepth: 1, match: (name, _dir, depth) => name === DB_NAME && depth === 1 }).map((p) =>
    dirname(p),
  );
}
