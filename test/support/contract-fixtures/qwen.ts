// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Qwen Code chat (a prompt, a reply calling a tool, its result, a closing reply, a telemetry record) and its
// malformed, unknown-type, truncated and appended variants, in a temp ~/.qwen/projects tree.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const ID = '5b0c7e2a-1d3f-4a6b-9c8d-7e6f5a4b3c2d';
const at = (s: number) => `2026-01-05T10:00:${String(s).padStart(2, '0')}.000Z`;
let parent: string | null = null;
const rec = (uuid: string, s: number, type: string, extra: object) => {
  const line = JSON.stringify({
    uuid,
    parentUuid: parent,
    sessionId: ID,
    timestamp: at(s),
    type,
    cwd: '/work/contract-app',
    version: '0.12.6',
    gitBranch: 'main',
    ...extra,
  });
  parent = uuid;
  return line;
};
const LINES = [
  rec('u1', 1, 'user', { message: { role: 'user', parts: [{ text: 'list the files in src' }] } }),
  rec('a1', 2, 'assistant', {
    model: 'coder-model',
    message: {
      role: 'model',
      parts: [
        { text: 'Listing src.' },
        { functionCall: { id: 'call_1', name: 'run_shell_command', args: { command: 'ls src' } } },
      ],
    },
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, cachedContentTokenCount: 40 },
  }),
  rec('t1', 3, 'tool_result', {
    message: {
      role: 'user',
      parts: [{ functionResponse: { id: 'call_1', name: 'run_shell_command', response: { output: 'index.ts' } } }],
    },
    toolCallResult: { callId: 'call_1', status: 'success' },
  }),
  rec('s1', 4, 'system', { subtype: 'ui_telemetry', systemPayload: { uiEvent: { 'event.name': 'x' } } }),
  rec('a2', 5, 'assistant', { model: 'coder-model', message: { role: 'model', parts: [{ text: 'One file.' }] } }),
];
const body = (lines: string[]) => `${lines.join('\n')}\n`;
const CHAT = `-work-contract-app/chats/${ID}.jsonl`;

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const qwenContractFixture: AdapterContractFixtures = {
  sessionPath: CHAT,
  makeTree(root) {
    const files = [
      write(join(root, CHAT), body(LINES)),
      write(join(root, '-work-other', 'chats', '0f1e2d3c-4b5a-4968-8776-655443322110.jsonl'), body(LINES)),
    ];
    write(join(root, '-work-contract-app', 'notes.jsonl'), body(LINES));
    write(join(root, '-work-contract-app', 'chats', 'index.json'), '{}');
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, body(LINES)), sessions: 1, messages: 4, project: '/work/contract-app' },
  unrelated: [
    { path: 'notes.md', content: '# Notes\n\nQwen Code chats hold Gemini parts.\n' },
    { path: 'other/chat.jsonl', content: '{"type":"user","uuid":"x","message":{"role":"user","content":"hi"}}\n' },
  ],
  malformed: {
    write: (p) => writeFileSync(p, body([LINES[0]!, '{"type":', LINES[1]!, '[1,2]', LINES[4]!])),
    lines: [2, 4],
    messages: 3,
  },
  unknownRecord: {
    write: (p) => writeFileSync(p, body([...LINES, rec('f1', 9, 'future_thing', { x: 1 })])),
    skippedType: 'type:future_thing',
    messages: 4,
  },
  truncated: { write: (p) => writeFileSync(p, body(LINES).slice(0, -20)) },
  append: (p) =>
    appendFileSync(p, `${rec('u2', 6, 'user', { message: { role: 'user', parts: [{ text: 'thanks' }] } })}\n`),
};
