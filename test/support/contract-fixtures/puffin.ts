// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Puffin `.puffin/history.json` (one thread: a root prompt and a follow-up, both answered), its malformed,
// unknown-branch, truncated and edited variants, and a temp tree of project folders.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const T0 = 1_767_607_200_000; // 2026-01-05T10:00:00Z
const prompt = (id: string, parentId: string | null, content: string, answer: string, i: number) => ({
  id,
  parentId,
  content,
  title: null,
  timestamp: T0 + i * 60_000,
  response: {
    content: answer,
    sessionId: 'cc-session-1',
    cost: 0.01,
    turns: 2,
    duration: 1500,
    filesModified: [],
    timestamp: T0 + i * 60_000 + 5000,
  },
  children: [],
});
const P1 = prompt('p1', null, 'list the files in src', 'There are two files.', 0);
const P2 = prompt('p2', 'p1', 'now add a test', 'Added src/index.test.ts.', 1);
const doc = (prompts: unknown[], extraBranches: Record<string, unknown> = {}) =>
  JSON.stringify(
    {
      branches: { main: { id: 'main', name: 'Main', prompts }, ...extraBranches },
      activeBranch: 'main',
      activePromptId: 'p2',
      updatedAt: T0,
    },
    null,
    2,
  );
const MINIMAL = doc([P1, P2]);

export const puffinContractFixture: AdapterContractFixtures = {
  sessionPath: 'contract-app/.puffin/history.json',
  makeTree(root) {
    const files = [
      join(root, 'contract-app', '.puffin', 'history.json'),
      join(root, 'clients', 'web', '.puffin', 'history.json'),
    ];
    for (const f of files) {
      mkdirSync(dirname(f), { recursive: true });
      writeFileSync(f, MINIMAL);
    }
    writeFileSync(join(root, 'contract-app', '.puffin', 'config.json'), '{"branches":{}}');
    writeFileSync(join(root, 'contract-app', 'history.json'), MINIMAL);
    mkdirSync(join(root, 'contract-app', 'node_modules', 'dep', '.puffin'), { recursive: true });
    writeFileSync(join(root, 'contract-app', 'node_modules', 'dep', '.puffin', 'history.json'), MINIMAL);
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, MINIMAL), sessions: 1, messages: 4 },
  unrelated: [
    { path: 'contract-app/.puffin/config.json', content: '{"branches":{"main":{}}}' },
    { path: 'contract-app/notes.md', content: '# Notes\n\n"branches" of the history.\n' },
    { path: 'elsewhere/history.json', content: '{"entries":[{"id":1}]}' },
  ],
  malformed: { write: (p) => writeFileSync(p, doc([P1, 42, P2, { id: 'p3' }])), lines: [2, 4], messages: 4 },
  unknownRecord: {
    write: (p) => writeFileSync(p, doc([P1, P2], { archived: 42 })),
    skippedType: 'branch:not_object',
    messages: 4,
  },
  truncated: { write: (p) => writeFileSync(p, MINIMAL.slice(0, MINIMAL.indexOf('now add a test'))) },
  editOne(p) {
    writeFileSync(
      p,
      readFileSync(p, 'utf8').replace('Added src/index.test.ts.', 'Added exactly one test file, src/index.test.ts.'),
    );
    return { key: 'p2:r', marker: 'exactly' };
  },
};
