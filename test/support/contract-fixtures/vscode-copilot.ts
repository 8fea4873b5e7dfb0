// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// VS Code Copilot Chat session (`workspaceStorage/<hash>/chatSessions/<id>.json`, two requests, one reply
// with a tool invocation) with the `workspace.json` beside it, and its malformed, truncated and edited variants.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const T0 = 1_767_607_200_000;
const request = (id: string, i: number, prompt: string, response: unknown[]) => ({
  requestId: id,
  message: { text: prompt, parts: [{ kind: 'text', text: prompt }] },
  variableData: { variables: [] },
  response,
  timestamp: T0 + i * 60_000,
  modelId: 'copilot/gpt-4.1',
});
const REQUESTS = [
  request('request_1', 0, 'list the files in src', [
    { value: 'Listing src.', supportHtml: false },
    { kind: 'prepareToolInvocation', toolName: 'copilot_listDirectory' },
    {
      kind: 'toolInvocationSerialized',
      toolId: 'copilot_listDirectory',
      toolCallId: 'call_1',
      pastTenseMessage: { value: 'Read src' },
      isComplete: true,
    },
    { value: 'There is one file.' },
  ]),
  request('request_2', 1, 'now add a test', [{ value: 'Added src/index.test.ts.' }]),
];
const doc = (requests: unknown[]) =>
  JSON.stringify({ version: 3, sessionId: 'sess-1', creationDate: T0, customTitle: 'Listing files', requests });
const MINIMAL = doc(REQUESTS);
const HASH = '9d3d359e87669fb4b088d63e3f60f8c6';

function placeSession(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dirname(dir), 'workspace.json'), JSON.stringify({ folder: 'file:///work/contract-app' }));
  const path = join(dir, name);
  writeFileSync(path, MINIMAL);
  return path;
}

export const vscodeCopilotContractFixture: AdapterContractFixtures = {
  sessionPath: `${HASH}/chatSessions/sess-1.json`,
  makeTree(root) {
    const files = [
      placeSession(join(root, HASH, 'chatSessions'), 'sess-1.json'),
      placeSession(join(root, 'a1b2c3', 'chatSessions'), 'sess-2.json'),
    ];
    writeFileSync(join(root, HASH, 'state.vscdb'), 'SQLite format 3\u0000');
    mkdirSync(join(root, HASH, 'chatEditingSessions', 'sess-1'), { recursive: true });
    writeFileSync(join(root, HASH, 'chatEditingSessions', 'sess-1', 'state.json'), '{"version":1}');
    return files;
  },
  minimal: {
    write: (p) => placeSession(dirname(p), 'sess-1.json'),
    sessions: 1,
    messages: 4,
    project: '/work/contract-app',
  },
  unrelated: [
    { path: `${HASH}/workspace.json`, content: '{"folder":"file:///work/contract-app"}' },
    { path: 'notes.md', content: '# Notes\n\nThe requests of a chat.\n' },
    { path: 'other/settings.json', content: '{"requests": 3}' },
  ],
  malformed: { write: (p) => writeFileSync(p, doc([REQUESTS[0], 42, REQUESTS[1], 'x'])), lines: [2, 4], messages: 4 },
  truncated: { write: (p) => writeFileSync(p, MINIMAL.slice(0, MINIMAL.indexOf('now add'))) },
  editOne(p) {
    writeFileSync(p, readFileSync(p, 'utf8').replace('Added src/index.test.ts.', 'Added exactly one test.'));
    return { key: 'request_2:response', marker: 'exactly' };
  },
};
