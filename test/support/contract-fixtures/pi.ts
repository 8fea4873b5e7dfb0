// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): the minimal
// session of the OpenClaw fixture (the same pi session format) at pi's own place and name,
// `--<cwd>--/<time>_<id>.jsonl`, and its malformed, unknown-entry, truncated and appended variants.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';
import { at, body, entry, ID, PI_SESSION_LINES as LINES } from './openclaw.js';

const SESSION = `--work-contract-app--/2026-01-05T10-00-00-000Z_${ID}.jsonl`;

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const piContractFixture: AdapterContractFixtures = {
  sessionPath: SESSION,
  makeTree(root) {
    const files = [
      write(join(root, SESSION), body(LINES)),
      write(join(root, '--work-other--', '2026-01-06T09-30-00-000Z_0a1b2c3d-4e5f.jsonl'), body(LINES)),
    ];
    write(join(root, '--work-contract-app--', 'subagent-artifacts', 'worker_input.md'), '# Task\n');
    write(join(root, '--work-contract-app--', 'notes.jsonl'), body(LINES));
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, body(LINES)), sessions: 1, messages: 4, project: '/work/contract-app' },
  unrelated: [
    { path: 'notes.md', content: '# Notes\n\npi writes sessions.\n' },
    { path: '--x--/2026-01-05T10-00-00-000Z_abc.jsonl', content: '{"type":"user","message":{"content":"hi"}}\n' },
  ],
  malformed: {
    write: (p) => writeFileSync(p, body([LINES[0]!, '{"type":', LINES[1]!, '[1,2]', LINES[4]!])),
    lines: [2, 4],
    messages: 2,
  },
  unknownRecord: {
    write: (p) =>
      writeFileSync(p, body([...LINES, JSON.stringify({ type: 'future_thing', id: 'f1', timestamp: at(9) })])),
    skippedType: 'future_thing',
    messages: 4,
  },
  truncated: { write: (p) => writeFileSync(p, body(LINES).slice(0, -20)) },
  append: (p) => appendFileSync(p, `${entry('e5', 'e4', 5, { role: 'user', content: 'thanks' })}\n`),
};
