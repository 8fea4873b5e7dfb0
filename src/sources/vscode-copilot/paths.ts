// Owns where VS Code keeps Copilot Chat sessions: `workspaceStorage/<hash>/chatSessions/<id>.json` (with
// `workspace.json` naming the folder) and `globalStorage/emptyWindowChatSessions/`, for VS Code, Insiders
// and VSCodium on Linux, macOS and Windows; also sessions exported with "Chat: Export Session" (`chat.json`).
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

const EDITORS = ['Code', 'Code - Insiders', 'VSCodium'];

export function vscodeCopilotDefaultRoots(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  const home = homeDir(env);
  const base =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? env.APPDATA || join(home, 'AppData', 'Roaming')
        : env.XDG_CONFIG_HOME || join(home, '.config');
  const users = [...EDITORS.map((e) => join(base, e, 'User')), join(home, '.vscode-server', 'data', 'User')];
  return users.flatMap((u) => [join(u, 'workspaceStorage'), join(u, 'globalStorage', 'emptyWindowChatSessions')]);
}

const inSessionFolder = (dir: string) => ['chatSessions', 'emptyWindowChatSessions'].includes(basename(dir));

export function discoverVscodeChats(root: string): string[] {
  return findFiles(root, { maxDepth: 2, match: (name, dir) => name.endsWith('.json') && inSessionFolder(dir) });
}

/** A chat session or an exported chat: a JSON object with `requests` and the requester or session fields. */
export function detectVscodeChat(path: string, head: string): boolean {
  if (!path.endsWith('.json') || !/"requests"\s*:/.test(head)) return false;
  return /"requesterUsername"\s*:/.test(head) || (inSessionFolder(dirname(path)) && /"sessionId"\s*:/.test(head));
}

/** The folder a workspace's chats belong to, from `workspace.json` beside `chatSessions/`. */
export function workspaceFolderOf(path: string): string | undefined {
  if (basename(dirname(path)) !== 'chatSessions') return undefined;
  try {
    const doc = JSON.parse(readFileSync(join(dirname(dirname(path)), 'workspace.json'), 'utf8')) as {
      folder?: unknown;
    };
    if (typeof doc.folder !== 'string') return undefined;
    return doc.folder.startsWith('file://') ? fileURLToPath(doc.folder) : doc.folder;
  } catch {
    return undefined;
  }
}
