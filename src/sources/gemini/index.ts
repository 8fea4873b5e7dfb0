// Owns the Gemini CLI source adapter: a FileAdapter over ~/.gemini/tmp (chat sessions in both the 2025 JSON
// and the 2026 JSONL format; prompt logs and checkpoints are reported as not sessions).
import type { FileAdapter } from '../types.js';
import { parseGeminiFile } from './parser.js';
import { discoverGeminiFiles, geminiDefaultRoots, isCheckpoint, isPromptLog, isSessionFile } from './paths.js';

export const geminiAdapter: FileAdapter = {
  agent: 'gemini',
  displayName: 'Gemini CLI',
  locations: '`~/.gemini/tmp/*/chats/`',
  formats: ['`session-*.json` (2025)', '`session-*.jsonl` with `$set` / `$rewindTo` (2026)', 'subagent sessions'],
  format: 'file',
  defaultRoots: geminiDefaultRoots,
  detect(path, head) {
    const start = head.trimStart();
    if (isSessionFile(path)) return start === '' || (start.startsWith('{') && /"sessionId"|"messages"/.test(head));
    if (isPromptLog(path)) return start.startsWith('[') && (/"messageId"/.test(head) || /^\[\s*\]?$/.test(start));
    if (isCheckpoint(path)) return start.startsWith('[') && (/"role"/.test(head) || /^\[\s*\]?$/.test(start));
    return false;
  },
  discover: discoverGeminiFiles,
  parseFile: parseGeminiFile,
};
