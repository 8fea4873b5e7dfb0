// Owns the Qwen Code source adapter: chat JSONL files under `~/.qwen/projects/*/chats/`, read incrementally.
import type { LineAdapter } from '../types.js';
import { parseQwenLines } from './parser.js';
import { discoverQwenChats, qwenDefaultRoots } from './paths.js';
import { isQwenRecord, QWEN_HEAD } from './schema.js';

function headIsQwen(head: string): boolean {
  for (const line of head.split('\n').slice(0, 8)) {
    try {
      if (isQwenRecord(JSON.parse(line))) return true;
    } catch {
      // the head may cut a line short
    }
  }
  return QWEN_HEAD.test(head.split('\n')[0] ?? '');
}

export const qwenAdapter: LineAdapter = {
  agent: 'qwen',
  displayName: 'Qwen Code',
  locations: '`$QWEN_RUNTIME_DIR/projects` or `~/.qwen/projects`',
  formats: ['`<project>/chats/<session id>.jsonl` (records with Gemini API `parts`)', '`/rename` titles'],
  format: 'lines',
  defaultRoots: qwenDefaultRoots,
  detect: (path, head) => path.endsWith('.jsonl') && headIsQwen(head),
  discover: discoverQwenChats,
  parseLines: parseQwenLines,
};
