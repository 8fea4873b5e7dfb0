// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Amp thread (a prompt, a reply calling Bash, its result, a closing reply) shaped like the real threads in
// test/fixtures/real-extra/amp, and its malformed, truncated and edited variants.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const ID = 'T-3b9d6c2e-1f4a-4e8b-9c7d-5a6b7c8d9e0f';
const t0 = 1767607200000;
const usage = { model: 'claude-sonnet-4-5-20250929', inputTokens: 9, outputTokens: 40, cacheReadInputTokens: 100 };
const MESSAGES = [
  { role: 'user', messageId: 0, content: [{ type: 'text', text: 'list the files in src' }], meta: { sentAt: t0 } },
  {
    role: 'assistant',
    messageId: 1,
    content: [
      { type: 'text', text: 'Listing src.' },
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { cmd: 'ls src' } },
    ],
    state: { type: 'complete', stopReason: 'tool_use' },
    usage,
  },
  {
    role: 'user',
    messageId: 2,
    content: [
      {
        type: 'tool_result',
        toolUseID: 'toolu_1',
        run: { status: 'done', result: { output: 'index.ts', exitCode: 0 } },
      },
    ],
  },
  { role: 'assistant', messageId: 3, content: [{ type: 'text', text: 'There is one file.' }], usage },
];
const doc = (messages: unknown[]) =>
  JSON.stringify(
    {
      v: 12,
      id: ID,
      created: t0,
      messages,
      agentMode: 'smart',
      env: { initial: { trees: [{ displayName: 'contract-app', uri: 'file:///work/contract-app' }] } },
      title: 'List src',
      usageLedger: { events: [{ timestamp: '2026-01-05T10:00:02.000Z', operationType: 'inference', toMessageId: 1 }] },
    },
    null,
    2,
  );
const THREAD = `${ID}.json`;

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const ampContractFixture: AdapterContractFixtures = {
  sessionPath: THREAD,
  makeTree(root) {
    const files = [
      write(join(root, THREAD), doc(MESSAGES)),
      write(join(root, 'T-0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.json'), doc(MESSAGES)),
    ];
    write(join(root, 'notes.json'), '{"id":"T-0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"}');
    write(join(root, 'T-0c1d2e3f.json.tmp'), doc(MESSAGES));
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, doc(MESSAGES)), sessions: 1, messages: 4, project: '/work/contract-app' },
  unrelated: [
    { path: 'notes.md', content: '# Notes\n\nAmp keeps threads as T-<uuid>.json.\n' },
    { path: 'config.json', content: '{"id":"abc","messages":[]}' },
  ],
  malformed: { write: (p) => writeFileSync(p, doc([MESSAGES[0], 7, MESSAGES[1], 'x'])), lines: [2, 4], messages: 2 },
  truncated: { write: (p) => writeFileSync(p, doc(MESSAGES).slice(0, -40)) },
  editOne(p) {
    writeFileSync(p, readFileSync(p, 'utf8').replace('There is one file.', 'There is exactly one file.'));
    return { key: 'm:3', marker: 'exactly' };
  },
};
