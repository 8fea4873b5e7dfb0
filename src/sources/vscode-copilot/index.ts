// Owns the VS Code Copilot Chat source adapter: the chat sessions VS Code keeps per workspace (and for
// empty windows), and chats exported to JSON; one session per file, re-read when the file changes.
import type { FileAdapter } from '../types.js';
import { parseVscodeChat } from './parser.js';
import { detectVscodeChat, discoverVscodeChats, vscodeCopilotDefaultRoots } from './paths.js';

export const vscodeCopilotAdapter: FileAdapter = {
  agent: 'vscode-copilot',
  displayName: 'VS Code Copilot Chat',
  locations:
    '`workspaceStorage/*/chatSessions/` and `globalStorage/emptyWindowChatSessions/` of VS Code, Insiders, ' +
    'VSCodium and VS Code Server',
  formats: [
    '`chatSessions/<id>.json` (project from `workspace.json`)',
    'exported chats (`chat.json` from "Chat: Export Session")',
  ],
  format: 'file',
  defaultRoots: (env) => vscodeCopilotDefaultRoots(env),
  detect: detectVscodeChat,
  discover: discoverVscodeChats,
  parseFile: (ctx) => parseVscodeChat(ctx.path),
};
