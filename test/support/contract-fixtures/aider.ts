// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Aider chat history (one session: startup output, two prompts and replies), its malformed (unclosed
// thinking block), truncated and edited variants, and a temp tree of project folders.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const MINIMAL = [
  '# aider chat started at 2026-01-05 10:00:00',
  '',
  '> Aider v0.86.2  ',
  '> Model: gpt-4o with diff edit format  ',
  '',
  '#### list the files in src  ',
  '',
  'There are two files: index.ts and main.ts.',
  '',
  '#### thanks  ',
  '',
  "You're welcome.",
  '',
].join('\n');

const MALFORMED = [
  '# aider chat started at 2026-01-05 10:00:00',
  '',
  '#### list the files in src  ',
  '',
  '<thinking-content-abc123>',
  'checking the tree, but the closing tag never comes',
  '',
].join('\n');

export const aiderContractFixture: AdapterContractFixtures = {
  sessionPath: 'contract-app/.aider.chat.history.md',
  makeTree(root) {
    const files = [
      join(root, 'contract-app', '.aider.chat.history.md'),
      join(root, 'work', 'api', '.aider.chat.history.md'),
    ];
    for (const f of files) {
      mkdirSync(dirname(f), { recursive: true });
      writeFileSync(f, MINIMAL);
    }
    writeFileSync(join(root, 'contract-app', '.aider.input.history'), '\n# 2026-01-05 10:00:01\n+list the files\n');
    writeFileSync(join(root, 'contract-app', 'README.md'), '# contract-app\n');
    mkdirSync(join(root, 'contract-app', 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(root, 'contract-app', 'node_modules', 'dep', '.aider.chat.history.md'), MINIMAL);
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, MINIMAL), sessions: 1, messages: 5 },
  unrelated: [
    {
      path: 'contract-app/README.md',
      content: '# contract-app\n\nWe use aider: see `.aider.chat.history.md`.\n\n#### not a prompt\n',
    },
    { path: 'contract-app/package.json', content: '{"name":"contract-app","version":"1.0.0"}' },
  ],
  malformed: { write: (p) => writeFileSync(p, MALFORMED), lines: [5], messages: 2 },
  truncated: { write: (p) => writeFileSync(p, MINIMAL.slice(0, MINIMAL.indexOf("You're") + 4)) },
  editOne(p) {
    writeFileSync(p, readFileSync(p, 'utf8').replace('There are two files', 'There are exactly two files'));
    return { key: 'L8', marker: 'exactly' };
  },
};
