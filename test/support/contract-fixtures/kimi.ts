// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Kimi CLI `wire.jsonl` (metadata, a turn with a prompt, a step calling a tool whose arguments stream in,
// its result, a closing step) and its malformed, unknown-event, truncated and edited variants.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const HASH = '4d1a7f0c9b8e6d5c4b3a29180f7e6d5c';
const ID = 'a3c1e5f7-2b4d-4f60-8a9c-0e1f2a3b4c5d';
const t0 = 1767607200;
const ev = (s: number, type: string, payload: object) =>
  JSON.stringify({ timestamp: t0 + s + 0.25, message: { type, payload } });
const LINES = [
  JSON.stringify({ type: 'metadata', protocol_version: '1.3' }),
  ev(1, 'TurnBegin', { user_input: [{ type: 'text', text: 'list the files in src' }] }),
  ev(2, 'StepBegin', { n: 1 }),
  ev(3, 'ContentPart', { type: 'text', text: 'Listing src.' }),
  ev(4, 'ToolCall', { type: 'function', id: 'tool_1', function: { name: 'Shell', arguments: '{"command": "ls' } }),
  ev(5, 'ToolCallPart', { arguments_part: ' src"}' }),
  ev(6, 'ToolResult', { tool_call_id: 'tool_1', return_value: { is_error: false, output: 'index.ts', message: '' } }),
  ev(7, 'StepBegin', { n: 2 }),
  ev(8, 'ContentPart', { type: 'text', text: 'There is one file.' }),
  ev(9, 'TurnEnd', {}),
];
const body = (lines: string[]) => `${lines.join('\n')}\n`;
const WIRE = `${HASH}/${ID}/wire.jsonl`;

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const kimiContractFixture: AdapterContractFixtures = {
  sessionPath: WIRE,
  makeTree(root) {
    const files = [
      write(join(root, WIRE), body(LINES)),
      write(join(root, HASH, 'b7d9f1a3-5c6e-4081-9a2b-3c4d5e6f7a8b', 'wire.jsonl'), body(LINES)),
    ];
    write(join(root, HASH, ID, 'context.jsonl'), '{"role":"user","content":"list the files in src"}\n');
    write(join(root, HASH, ID, 'state.json'), '{"version":1}');
    write(join(root, HASH, ID, 'subagents', 'agent-1', 'wire.jsonl'), body(LINES));
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, body(LINES)), sessions: 1, messages: 4 },
  unrelated: [
    { path: 'notes.md', content: '# Notes\n\nKimi CLI writes wire.jsonl.\n' },
    { path: 'x/wire.jsonl', content: '{"type":"user","message":{"role":"user","content":"hi"}}\n' },
  ],
  malformed: {
    write: (p) => writeFileSync(p, body([LINES[0]!, LINES[1]!, '{"timestamp":', LINES[2]!, LINES[3]!, '[1,2]'])),
    lines: [3, 6],
    messages: 2,
  },
  unknownRecord: {
    write: (p) => writeFileSync(p, body([...LINES, ev(10, 'FutureThing', { x: 1 })])),
    skippedType: 'FutureThing',
    messages: 4,
  },
  truncated: { write: (p) => writeFileSync(p, body(LINES).slice(0, -30)) },
  editOne(p) {
    writeFileSync(p, readFileSync(p, 'utf8').replace('There is one file.', 'There is exactly one file.'));
    return { key: 'step:8', marker: 'exactly' };
  },
};
