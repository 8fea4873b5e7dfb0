// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Cline task (`tasks/<id>/api_conversation_history.json`: the task, a tool call, its result, a reply) with
// its UI messages and metadata beside it, and its malformed, unknown-role, truncated and edited variants.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const T0 = 1_767_607_200_000; // 2026-01-05T10:00:00Z
const ENV =
  '<environment_details>\n# Current Working Directory (/work/contract-app) Files\nsrc/\n</environment_details>';
const MESSAGES = [
  {
    role: 'user',
    ts: T0,
    content: [
      { type: 'text', text: '<task>\nlist the files in src\n</task>' },
      { type: 'text', text: ENV },
    ],
  },
  {
    role: 'assistant',
    ts: T0 + 1000,
    modelInfo: { modelId: 'claude-sonnet-4-5', providerId: 'anthropic', mode: 'act' },
    metrics: { tokens: { prompt: 120, completion: 30, cached: 0 } },
    content: [
      { type: 'text', text: 'Listing src.' },
      { type: 'tool_use', id: 'toolu_1', name: 'list_files', input: { path: 'src' } },
    ],
  },
  { role: 'user', ts: T0 + 2000, content: [{ type: 'text', text: "[list_files for 'src'] Result:\nindex.ts" }] },
  { role: 'assistant', ts: T0 + 3000, content: [{ type: 'text', text: 'There is one file.' }] },
];
const doc = (entries: unknown[]) => JSON.stringify(entries);
const MINIMAL = doc(MESSAGES);
const TASK = 'saoudrizwan.claude-dev/tasks/1767607200000';

function writeTask(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'api_conversation_history.json');
  writeFileSync(path, MINIMAL);
  writeFileSync(join(dir, 'ui_messages.json'), JSON.stringify([{ ts: T0, type: 'say', say: 'text', text: 'x' }]));
  writeFileSync(join(dir, 'task_metadata.json'), JSON.stringify({ files_in_context: [], model_usage: [] }));
  return path;
}

export const clineContractFixture: AdapterContractFixtures = {
  sessionPath: `${TASK}/api_conversation_history.json`,
  makeTree(root) {
    const files = [
      writeTask(join(root, TASK)),
      writeTask(join(root, 'rooveterinaryinc.roo-cline', 'tasks', '0b7c5f4e-9d1e-4c55-8f0e-1f2a3b4c5d6e')),
    ];
    mkdirSync(join(root, 'saoudrizwan.claude-dev', 'node_modules', 'x', 'tasks', '1'), { recursive: true });
    writeFileSync(
      join(root, 'saoudrizwan.claude-dev', 'node_modules', 'x', 'tasks', '1', 'api_conversation_history.json'),
      MINIMAL,
    );
    writeFileSync(join(root, 'saoudrizwan.claude-dev', 'state.json'), '{}');
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, MINIMAL), sessions: 1, messages: 4, project: '/work/contract-app' },
  unrelated: [
    { path: `${TASK}/ui_messages.json`, content: '[{"ts":1,"type":"say","say":"text"}]' },
    { path: `${TASK}/notes.md`, content: '# Notes\n\nThe api_conversation_history of a task.\n' },
    { path: 'elsewhere/history.json', content: '[{"role":"user","content":"hi"}]' },
  ],
  malformed: {
    write: (p) => writeFileSync(p, doc([MESSAGES[0], 42, MESSAGES[1], 'x'])),
    lines: [2, 4],
    messages: 2,
  },
  unknownRecord: {
    write: (p) => writeFileSync(p, doc([...MESSAGES, { role: 'system', content: 'rules' }])),
    skippedType: 'role:system',
    messages: 4,
  },
  truncated: { write: (p) => writeFileSync(p, MINIMAL.slice(0, MINIMAL.indexOf('one file'))) },
  editOne(p) {
    writeFileSync(p, readFileSync(p, 'utf8').replace('There is one file.', 'There is exactly one file.'));
    return { key: `ts:${T0 + 3000}`, marker: 'exactly' };
  },
};
