// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// OpenClaw session (pi session format: header, a prompt in a metadata block, a reply calling a tool, its
// result, a closing reply) and its malformed, unknown-entry, truncated and appended variants.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

export const ID = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
export const at = (s: number) => `2026-01-05T10:00:${String(s).padStart(2, '0')}.000Z`;
export const entry = (id: string, parentId: string | null, s: number, message: object) =>
  JSON.stringify({ type: 'message', id, parentId, timestamp: at(s), message });
const usage = { input: 100, output: 10, cacheRead: 40, cacheWrite: 0, totalTokens: 150 };
export const PI_SESSION_LINES = [
  JSON.stringify({ type: 'session', version: 3, id: ID, timestamp: at(0), cwd: '/work/contract-app' }),
  entry('e1', null, 1, {
    role: 'user',
    content: [
      { type: 'text', text: 'Sender (untrusted metadata):\n```json\n{"id": "1"}\n```\n\nlist the files in src' },
    ],
  }),
  entry('e2', 'e1', 2, {
    role: 'assistant',
    model: 'glm-5',
    usage,
    content: [
      { type: 'text', text: 'Listing src.' },
      { type: 'toolCall', id: 'call_1', name: 'exec', arguments: { command: 'ls src' } },
    ],
  }),
  entry('e3', 'e2', 3, {
    role: 'toolResult',
    toolCallId: 'call_1',
    toolName: 'exec',
    content: [{ type: 'text', text: 'index.ts' }],
  }),
  entry('e4', 'e3', 4, { role: 'assistant', model: 'glm-5', usage, content: [{ type: 'text', text: 'One file.' }] }),
];
export const body = (lines: string[]) => `${lines.join('\n')}\n`;
const SESSION = `main/sessions/${ID}.jsonl`;

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const openclawContractFixture: AdapterContractFixtures = {
  sessionPath: SESSION,
  makeTree(root) {
    const files = [
      write(join(root, SESSION), body(PI_SESSION_LINES)),
      write(join(root, 'helper', 'sessions', '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d.jsonl'), body(PI_SESSION_LINES)),
    ];
    write(join(root, 'main', 'sessions', 'sessions.json'), '{}');
    write(join(root, 'main', 'sessions', `${ID}.trajectory.jsonl`), body(PI_SESSION_LINES));
    write(join(root, 'main', 'sessions', `${ID}.jsonl.reset.2026-01-05T10-00-00.000Z`), body(PI_SESSION_LINES));
    return files;
  },
  minimal: {
    write: (p) => writeFileSync(p, body(PI_SESSION_LINES)),
    sessions: 1,
    messages: 4,
    project: '/work/contract-app',
  },
  unrelated: [
    { path: 'notes.md', content: '# Notes\n\nOpenClaw writes pi sessions.\n' },
    { path: 'main/sessions/x.jsonl', content: '{"type":"user","message":{"role":"user","content":"hi"}}\n' },
  ],
  malformed: {
    write: (p) =>
      writeFileSync(p, body([PI_SESSION_LINES[0]!, '{"type":', PI_SESSION_LINES[1]!, '[1,2]', PI_SESSION_LINES[4]!])),
    lines: [2, 4],
    messages: 2,
  },
  unknownRecord: {
    write: (p) =>
      writeFileSync(
        p,
        body([...PI_SESSION_LINES, JSON.stringify({ type: 'future_thing', id: 'f1', timestamp: at(9) })]),
      ),
    skippedType: 'future_thing',
    messages: 4,
  },
  truncated: { write: (p) => writeFileSync(p, body(PI_SESSION_LINES).slice(0, -20)) },
  append: (p) => appendFileSync(p, `${entry('e5', 'e4', 5, { role: 'user', content: 'thanks' })}\n`),
};
