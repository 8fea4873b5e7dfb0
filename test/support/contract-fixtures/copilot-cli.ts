// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// GitHub Copilot CLI `session-state/<id>/events.jsonl` (start, a prompt, a reply with a tool request, its
// result, a closing reply) and its malformed, unknown-event, truncated and appended variants.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const ID = '0b7c5f4e-9d1e-4c55-8f0e-1f2a3b4c5d6e';
const at = (s: number) => `2026-01-05T10:00:${String(s).padStart(2, '0')}.000Z`;
const event = (type: string, id: string, s: number, data: object) =>
  JSON.stringify({ type, data, id, timestamp: at(s), parentId: null });
const START = event('session.start', 'e0', 0, {
  sessionId: ID,
  version: 1,
  producer: 'copilot-agent',
  copilotVersion: '1.0.60',
  startTime: at(0),
  context: { cwd: '/work/contract-app', branch: 'main' },
});
const LINES = [
  START,
  event('user.message', 'e1', 1, { content: 'list the files in src', transformedContent: 'list the files in src' }),
  event('assistant.message', 'e2', 2, {
    messageId: 'm1',
    model: 'claude-sonnet-4.6',
    content: 'Listing src.',
    toolRequests: [{ toolCallId: 'call_1', name: 'bash', arguments: { command: 'ls src' }, type: 'function' }],
  }),
  event('tool.execution_complete', 'e3', 3, { toolCallId: 'call_1', success: true, result: { content: 'index.ts' } }),
  event('assistant.message', 'e4', 4, { messageId: 'm2', model: 'claude-sonnet-4.6', content: 'One file.' }),
];
const body = (lines: string[]) => `${lines.join('\n')}\n`;

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const copilotCliContractFixture: AdapterContractFixtures = {
  sessionPath: `session-state/${ID}/events.jsonl`,
  makeTree(root) {
    const other = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
    const files = [
      write(join(root, 'session-state', ID, 'events.jsonl'), body(LINES)),
      write(join(root, 'session-state', `${other}.jsonl`), body(LINES)),
      write(
        join(root, 'history-session-state', `session_${other}_1767607200000.json`),
        JSON.stringify({ sessionId: other, startTime: at(0), chatMessages: [{ role: 'user', content: 'hi' }] }),
      ),
    ];
    write(join(root, 'session-state', ID, 'workspace.yaml'), `id: ${ID}\ncwd: /work/contract-app\n`);
    write(join(root, 'session-state', ID, 'rewind-snapshots', 'index.json'), '{}');
    write(join(root, 'session-state', ID, 'checkpoints', 'index.md'), '# Checkpoints\n');
    write(join(root, 'logs', 'session.jsonl'), body(LINES));
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, body(LINES)), sessions: 1, messages: 4, project: '/work/contract-app' },
  unrelated: [
    { path: `session-state/${ID}/rewind-snapshots/index.json`, content: '{"snapshots":[]}' },
    { path: 'notes.md', content: '# Notes\n\nThe session.start event of Copilot.\n' },
    { path: 'other/events.jsonl', content: '{"type":"user","message":{"role":"user","content":"hi"}}\n' },
  ],
  malformed: {
    write: (p) => writeFileSync(p, body([START, '{"type":', LINES[1]!, '[1,2]', LINES[4]!])),
    lines: [2, 4],
    messages: 2,
  },
  unknownRecord: {
    write: (p) => writeFileSync(p, body([...LINES, event('session.future_thing', 'e9', 9, { x: 1 })])),
    skippedType: 'session.future_thing',
    messages: 4,
  },
  truncated: { write: (p) => writeFileSync(p, body(LINES).slice(0, -20)) },
  append: (p) => appendFileSync(p, `${event('user.message', 'e5', 5, { content: 'thanks' })}\n`),
};
