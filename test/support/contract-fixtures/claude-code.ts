// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Claude Code transcript (prompt, tool call, tool result, reply), its malformed, unknown-type, truncated
// and appended variants, and a temp `projects/` tree with sidecars and unrelated files beside the transcripts.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const SID = '0c0ffee0-1111-4222-8333-444455556666';
const CWD = '/work/contract-app';
const base = {
  sessionId: SID,
  cwd: CWD,
  gitBranch: 'main',
  version: '2.1.0',
  isSidechain: false,
  userType: 'external',
};

const user = (uuid: string, parentUuid: string | null, content: unknown, ts: string) =>
  JSON.stringify({ ...base, type: 'user', uuid, parentUuid, timestamp: ts, message: { role: 'user', content } });
const assistant = (uuid: string, parentUuid: string, id: string, content: unknown[], ts: string) =>
  JSON.stringify({
    ...base,
    type: 'assistant',
    uuid,
    parentUuid,
    timestamp: ts,
    requestId: `req_${id}`,
    message: {
      id,
      role: 'assistant',
      model: 'claude-sonnet-4',
      content,
      usage: { input_tokens: 10, output_tokens: 4, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    },
  });

const MINIMAL = [
  user('u-1', null, 'list the files in src', '2026-01-05T10:00:00.000Z'),
  assistant(
    'a-1',
    'u-1',
    'msg_01',
    [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls src' } }],
    '2026-01-05T10:00:01.000Z',
  ),
  user(
    'u-2',
    'a-1',
    [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'index.ts\nmain.ts', is_error: false }],
    '2026-01-05T10:00:02.000Z',
  ),
  assistant('a-2', 'u-2', 'msg_02', [{ type: 'text', text: 'There are two files.' }], '2026-01-05T10:00:03.000Z'),
];
const text = (lines: string[]) => lines.join('\n') + '\n';

export const claudeCodeContractFixture: AdapterContractFixtures = {
  sessionPath: `-work-contract-app/${SID}.jsonl`,
  makeTree(root) {
    const slug = join(root, '-work-contract-app');
    const files = [
      join(slug, `${SID}.jsonl`),
      join(slug, 'agent-a1b2c3.jsonl'),
      join(slug, SID, 'subagents', 'agent-a9f8e7.jsonl'),
    ];
    for (const f of files) {
      mkdirSync(dirname(f), { recursive: true });
      writeFileSync(f, text(MINIMAL));
    }
    writeFileSync(join(slug, SID, 'subagents', 'agent-a9f8e7.meta.json'), '{"agentType":"Explore","description":"x"}');
    mkdirSync(join(slug, SID, 'tool-results'), { recursive: true });
    writeFileSync(join(slug, SID, 'tool-results', 'toolu_1.txt'), 'full output');
    writeFileSync(join(slug, 'sessions-index.json'), '{"entries":[]}');
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, text(MINIMAL)), sessions: 1, messages: 4, project: CWD },
  unrelated: [
    { path: '-work-contract-app/notes.md', content: '# Notes\n\nNot a transcript.\n' },
    { path: '-work-contract-app/settings.json', content: '{"theme":"dark","parentUuid":null}' },
    { path: '-work-contract-app/events.jsonl', content: '{"event":"click","at":1}\n{"event":"scroll","at":2}\n' },
  ],
  malformed: {
    write: (p) =>
      writeFileSync(p, text([MINIMAL[0]!, '{"type":"user",', MINIMAL[1]!, '[1,2,3]', MINIMAL[2]!, MINIMAL[3]!])),
    lines: [2, 4],
    messages: 4,
  },
  unknownRecord: {
    write: (p) =>
      writeFileSync(
        p,
        text([MINIMAL[0]!, JSON.stringify({ type: 'hologram-v9', sessionId: SID, uuid: 'h-1' }), ...MINIMAL.slice(1)]),
      ),
    skippedType: 'hologram-v9',
    messages: 4,
  },
  truncated: { write: (p) => writeFileSync(p, text(MINIMAL.slice(0, 3)) + MINIMAL[3]!.slice(0, 60)) },
  append: (p) => appendFileSync(p, user('u-3', 'a-2', 'thanks, now run the tests', '2026-01-05T10:01:00.000Z') + '\n'),
};
