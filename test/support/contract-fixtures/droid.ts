// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Factory Droid transcript shaped like the ones the real CLI wrote (test/fixtures/real-extra/droid): a
// `session_start`, a prompt, a reply calling Execute, its result, a closing reply and a turn outcome.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const ID = '3b9d6c2e-1f4a-4e8b-9c7d-5a6b7c8d9e0f';
const at = (s: number) => new Date(Date.UTC(2026, 0, 5, 10, 0, s)).toISOString();
const msg = (id: string, s: number, role: string, content: unknown[]) =>
  JSON.stringify({ type: 'message', id, timestamp: at(s), message: { role, content } });
const LINES = [
  JSON.stringify({
    type: 'session_start',
    id: ID,
    title: 'List src',
    owner: 'unknown',
    version: 2,
    cwd: '/work/contract-app',
  }),
  msg('u1', 1, 'user', [{ type: 'text', text: 'list the files in src' }]),
  msg('a1', 2, 'assistant', [
    { type: 'text', text: 'Listing src.' },
    { type: 'tool_use', id: 'call_1', name: 'Execute', input: { command: 'ls src', riskLevel: 'low' } },
  ]),
  msg('r1', 3, 'user', [{ type: 'tool_result', tool_use_id: 'call_1', is_error: false, content: 'index.ts' }]),
  msg('a2', 4, 'assistant', [{ type: 'text', text: 'There is one file.' }]),
  JSON.stringify({ type: 'agent_turn_outcome', turnId: 'u1', reason: 'completed', resultKind: 'text' }),
];
const body = (lines: string[]) => `${lines.join('\n')}\n`;
const SESSION = `-work-contract-app/${ID}.jsonl`;

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const droidContractFixture: AdapterContractFixtures = {
  sessionPath: SESSION,
  makeTree(root) {
    const files = [
      write(join(root, SESSION), body(LINES)),
      write(join(root, '-work-other', '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.jsonl'), body(LINES)),
    ];
    write(join(root, '-work-contract-app', `${ID}.settings.json`), '{"model":"claude-sonnet-4-5"}');
    write(join(root, '-work-contract-app', 'notes.jsonl'), body(LINES));
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, body(LINES)), sessions: 1, messages: 4, project: '/work/contract-app' },
  unrelated: [
    { path: 'notes.md', content: '# Notes\n\nDroid writes session_start first.\n' },
    { path: 'x/0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.jsonl', content: '{"type":"user","message":{"role":"user"}}\n' },
    { path: 'x/settings.json', content: '{"type":"session_start"}' },
  ],
  malformed: {
    write: (p) => writeFileSync(p, body([LINES[0]!, LINES[1]!, '{"type":', LINES[2]!, '[1,2]'])),
    lines: [3, 5],
    messages: 2,
  },
  unknownRecord: {
    write: (p) => writeFileSync(p, body([...LINES, JSON.stringify({ type: 'future_thing', x: 1 })])),
    skippedType: 'future_thing',
    messages: 4,
  },
  truncated: { write: (p) => writeFileSync(p, body(LINES).slice(0, -30)) },
  editOne(p) {
    writeFileSync(p, readFileSync(p, 'utf8').replace('There is one file.', 'There is exactly one file.'));
    return { key: 'a2', marker: 'exactly' };
  },
};
