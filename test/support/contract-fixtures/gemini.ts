// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// 2026 JSONL Gemini CLI chat (header, prompt, tool call with its result, reply), its malformed,
// unknown-type, truncated and edited variants, and a temp ~/.gemini/tmp tree.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const NAME = 'session-2026-01-05T10-00-c0ffee01.jsonl';
const header = {
  sessionId: 'c0ffee01-0000-4000-8000-000000000001',
  projectHash: 'abc123',
  startTime: '2026-01-05T10:00:00.000Z',
  lastUpdated: '2026-01-05T10:00:04.000Z',
  kind: 'main',
};
const user = {
  id: 'u1',
  timestamp: '2026-01-05T10:00:01.000Z',
  type: 'user',
  content: [{ text: 'list the files in src' }],
};
const call = {
  id: 'g1',
  timestamp: '2026-01-05T10:00:02.000Z',
  type: 'gemini',
  content: '',
  thoughts: [],
  model: 'gemini-2.5-pro',
  toolCalls: [
    {
      id: 't1',
      name: 'run_shell_command',
      args: { command: 'ls src' },
      status: 'success',
      result: [{ functionResponse: { id: 't1', name: 'run_shell_command', response: { output: 'index.ts main.ts' } } }],
    },
  ],
};
const reply = {
  id: 'g2',
  timestamp: '2026-01-05T10:00:04.000Z',
  type: 'gemini',
  content: 'There are two files.',
  thoughts: [],
  model: 'gemini-2.5-pro',
};
const MINIMAL = [header, user, call, reply].map((r) => JSON.stringify(r));
const text = (lines: string[]) => lines.join('\n') + '\n';

export const geminiContractFixture: AdapterContractFixtures = {
  sessionPath: `contract-app/chats/${NAME}`,
  makeTree(root) {
    const files = [
      join(root, 'contract-app', 'chats', NAME),
      join(root, 'contract-app', 'logs.json'),
      join(root, 'contract-app', 'checkpoint-before-refactor.json'),
      join(
        root,
        '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        'chats',
        'session-2025-09-26T15-33-772cf022.json',
      ),
    ];
    for (const f of files) mkdirSync(dirname(f), { recursive: true });
    writeFileSync(files[0]!, text(MINIMAL));
    writeFileSync(files[1]!, '[{"sessionId":"s","messageId":0,"type":"user","message":"hi"}]');
    writeFileSync(files[2]!, '[{"role":"user","parts":[{"text":"hi"}]}]');
    writeFileSync(files[3]!, JSON.stringify({ ...header, messages: [user, reply] }, null, 2));
    writeFileSync(join(root, 'contract-app', 'settings.json'), '{"theme":"dark"}');
    writeFileSync(join(root, 'contract-app', 'chats', 'notes.md'), '# notes\n');
    writeFileSync(join(root, 'contract-app', 'session-outside-chats.json'), JSON.stringify(header));
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, text(MINIMAL)), sessions: 1, messages: 4 },
  unrelated: [
    { path: 'contract-app/chats/notes.md', content: '# Session notes\n\n"sessionId" appears in prose.\n' },
    { path: 'contract-app/settings.json', content: '{"theme":"dark","sessionId":"x"}' },
    { path: 'contract-app/chats/session-2026-01-05T11-00-deadbeef.json', content: '{"foo":1,"bar":[1,2]}' },
  ],
  malformed: {
    write: (p) => writeFileSync(p, text([MINIMAL[0]!, MINIMAL[1]!, '{oops', MINIMAL[2]!, '[1,2]', MINIMAL[3]!])),
    lines: [3, 5],
    messages: 4,
  },
  unknownRecord: {
    write: (p) =>
      writeFileSync(
        p,
        text([
          MINIMAL[0]!,
          MINIMAL[1]!,
          JSON.stringify({ id: 'x1', timestamp: '2026-01-05T10:00:01.500Z', type: 'hologram', content: '?' }),
          MINIMAL[2]!,
          MINIMAL[3]!,
        ]),
      ),
    skippedType: 'type:hologram',
    messages: 4,
  },
  truncated: { write: (p) => writeFileSync(p, text(MINIMAL.slice(0, 3)) + MINIMAL[3]!.slice(0, 40)) },
  editOne(p) {
    writeFileSync(p, readFileSync(p, 'utf8').replace('There are two files.', 'There are exactly two source files.'));
    return { key: 'g2', marker: 'exactly' };
  },
};
