// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Continue session (a prompt, a reply calling a tool, its result, a closing reply) with its sessions.json,
// and its malformed, truncated and edited variants.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const ID = '3b9d6c2e-1f4a-4e8b-9c7d-5a6b7c8d9e0f';
const msg = (id: string, message: object) => ({ message: { id, ...message }, contextItems: [] });
const HISTORY = [
  msg('m1', { role: 'user', content: [{ type: 'text', text: 'list the files in src' }] }),
  msg('m2', {
    role: 'assistant',
    content: 'Listing src.',
    toolCalls: [
      { id: 'call_1', type: 'function', function: { name: 'run_terminal_command', arguments: '{"command":"ls src"}' } },
    ],
  }),
  msg('m3', { role: 'tool', content: 'index.ts', toolCallId: 'call_1' }),
  msg('m4', { role: 'assistant', content: 'There is one file.' }),
];
const doc = (history: unknown[]) =>
  JSON.stringify(
    { sessionId: ID, title: 'List src', workspaceDirectory: 'file:///work/contract-app', history },
    null,
    2,
  );
const SESSION = `sessions/${ID}.json`;

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const continueContractFixture: AdapterContractFixtures = {
  sessionPath: SESSION,
  makeTree(root) {
    const files = [
      write(join(root, SESSION), doc(HISTORY)),
      write(join(root, 'sessions', '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.json'), doc(HISTORY)),
    ];
    write(join(root, 'sessions', 'sessions.json'), JSON.stringify([{ sessionId: ID, dateCreated: '1767607200000' }]));
    write(join(root, 'config.json'), '{"models":[]}');
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, doc(HISTORY)), sessions: 1, messages: 4, project: '/work/contract-app' },
  unrelated: [
    { path: 'notes.md', content: '# Notes\n\nContinue keeps sessions.\n' },
    { path: 'sessions/6f1e2d3c-4b5a-4968-8776-655443322110.jsonl', content: '{"sessionId":"x","history":[]}\n' },
  ],
  malformed: { write: (p) => writeFileSync(p, doc([HISTORY[0], 7, HISTORY[1], { x: 1 }])), lines: [2, 4], messages: 2 },
  truncated: { write: (p) => writeFileSync(p, doc(HISTORY).slice(0, -40)) },
  editOne(p) {
    writeFileSync(p, readFileSync(p, 'utf8').replace('There is one file.', 'There is exactly one file.'));
    return { key: 'm4', marker: 'exactly' };
  },
};
