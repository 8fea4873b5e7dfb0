// Owns where Cline and its forks Roo Code and Kilo Code keep their tasks: the editor's globalStorage
// folder of each extension (`tasks/<task id>/api_conversation_history.json`, with `ui_messages.json` and
// `task_metadata.json` beside it) on Linux, macOS and Windows, the remote server's, and the Cline CLI's.
import { basename, dirname, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

export const HISTORY_FILE = 'api_conversation_history.json';
export const UI_MESSAGES_FILE = 'ui_messages.json';
export const TASK_METADATA_FILE = 'task_metadata.json';

/** Extension folder name → the product it belongs to. */
export const EXTENSIONS: Record<string, string> = {
  'saoudrizwan.claude-dev': 'cline',
  'rooveterinaryinc.roo-cline': 'roo-code',
  'kilocode.kilo-code': 'kilo-code',
};
const EDITORS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'];

/** The user-data folders of VS Code-like editors on this platform, and the remote servers'. */
function editorUserDirs(env: Env, platform: NodeJS.Platform): string[] {
  const home = homeDir(env);
  const base =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? env.APPDATA || join(home, 'AppData', 'Roaming')
        : env.XDG_CONFIG_HOME || join(home, '.config');
  const dirs = EDITORS.map((editor) => join(base, editor, 'User'));
  for (const server of ['.vscode-server', '.vscode-remote', '.cursor-server'])
    dirs.push(join(home, server, 'data', 'User'));
  return dirs;
}

export function clineDefaultRoots(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  const roots: string[] = [];
  for (const user of editorUserDirs(env, platform)) {
    for (const ext of Object.keys(EXTENSIONS)) roots.push(join(user, 'globalStorage', ext));
  }
  // The Cline CLI keeps the same task folders under $CLINE_DIR (default ~/.cline)/data.
  roots.push(join(env.CLINE_DIR || join(homeDir(env), '.cline'), 'data'));
  return roots;
}

/** Which product wrote a task file, from the extension folder in its path (Cline when none is named). */
export function productOf(path: string): string {
  for (const part of path.split(/[\\/]/).reverse()) {
    const product = EXTENSIONS[part.toLowerCase()];
    if (product) return product;
  }
  return 'cline';
}

/** The task id: the name of the folder holding the history file. */
export function taskIdOf(path: string): string {
  return basename(dirname(path));
}

export function detectClineFile(path: string, head: string): boolean {
  return basename(path) === HISTORY_FILE && /^\s*\[/.test(head);
}

/** History files of the tasks under `root` (an extension folder, its `tasks/`, or one task folder). */
export function discoverClineTasks(root: string): string[] {
  return findFiles(root, { maxDepth: 3, match: (name) => name === HISTORY_FILE });
}

const SIDE_FILES = new Set([UI_MESSAGES_FILE, TASK_METADATA_FILE]);

export function explainClineFile(path: string): string | undefined {
  if (!SIDE_FILES.has(basename(path))) return undefined;
  return `Cline task file: read with its task's ${HISTORY_FILE}`;
}

export const sidecarPath = (historyPath: string, name: string): string => join(dirname(historyPath), name);
