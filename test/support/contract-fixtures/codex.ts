// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// generation-3 Codex rollout (session_meta, prompt, function call and output, reply), its malformed,
// unknown-type, truncated and appended variants, and a temp $CODEX_HOME tree.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const ID = '019c0000-c0de-7abc-8def-0123456789ab';
const CWD = '/work/contract-app';
const NAME = `rollout-2026-01-05T10-00-00-${ID}.jsonl`;
const rec = (timestamp: string, type: string, payload: object) => JSON.stringify({ timestamp, type, payload });
const item = (ts: string, payload: object) => rec(ts, 'response_item', payload);

const MINIMAL = [
  rec('2026-01-05T10:00:00.000Z', 'session_meta', {
    id: ID,
    timestamp: '2026-01-05T10:00:00.000Z',
    cwd: CWD,
    originator: 'codex_cli_rs',
    cli_version: '0.90.0',
    git: { branch: 'main' },
  }),
  item('2026-01-05T10:00:01.000Z', {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: 'list the files in src' }],
  }),
  item('2026-01-05T10:00:02.000Z', {
    type: 'function_call',
    name: 'shell',
    arguments: '{"command":["ls","src"]}',
    call_id: 'call_1',
  }),
  item('2026-01-05T10:00:03.000Z', { type: 'function_call_output', call_id: 'call_1', output: 'index.ts\nmain.ts' }),
  item('2026-01-05T10:00:04.000Z', {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'There are two files.' }],
  }),
];
const text = (lines: string[]) => lines.join('\n') + '\n';

export const codexContractFixture: AdapterContractFixtures = {
  sessionPath: `sessions/2026/01/05/${NAME}`,
  makeTree(root) {
    const files = [
      join(root, 'sessions', '2026', '01', '05', NAME),
      join(
        root,
        'sessions',
        '2026',
        '01',
        '06',
        'rollout-2026-01-06T09-00-00-019c0000-c0de-7abc-8def-0123456789ac.jsonl',
      ),
      join(root, 'archived_sessions', 'rollout-2025-12-01T08-00-00-019c0000-c0de-7abc-8def-0123456789ad.jsonl'),
      join(root, 'history.jsonl'),
    ];
    for (const f of files) {
      mkdirSync(dirname(f), { recursive: true });
      writeFileSync(f, text(MINIMAL));
    }
    writeFileSync(join(root, 'config.toml'), 'model = "o3"\n');
    writeFileSync(join(root, 'auth.json'), '{}');
    writeFileSync(join(root, 'sessions', '2026', '01', '05', 'notes.md'), '# notes\n');
    mkdirSync(join(root, 'log'), { recursive: true });
    writeFileSync(join(root, 'log', 'rollout-2026-01-05T10-00-00-x.jsonl'), '{}\n');
    writeFileSync(join(root, 'sessions', 'history.jsonl'), '{"session_id":"x","ts":1,"text":"y"}\n');
    return files;
  },
  minimal: { write: (p) => writeFileSync(p, text(MINIMAL)), sessions: 1, messages: 4, project: CWD },
  unrelated: [
    { path: 'sessions/2026/01/05/notes.md', content: '# rollout notes\n\n"session_meta" is mentioned here.\n' },
    { path: 'config.json', content: '{"model":"o3","session_id":"x","ts":1}' },
    {
      path: 'sessions/2026/01/05/rollout-2026-01-05T11-00-00-00000000-0000-0000-0000-000000000000.jsonl',
      content: '{"event":"click","at":1}\n',
    },
    {
      path: 'history.jsonl',
      content: '{"display":"hello","pastedContents":{},"timestamp":1,"project":"/w","sessionId":"s"}\n',
    },
  ],
  malformed: {
    write: (p) =>
      writeFileSync(
        p,
        text([
          MINIMAL[0]!,
          MINIMAL[1]!,
          '{"timestamp":"2026-01-05T10:00:02Z","type":',
          MINIMAL[2]!,
          '"just a string"',
          MINIMAL[3]!,
          MINIMAL[4]!,
        ]),
      ),
    lines: [3, 5],
    messages: 4,
  },
  unknownRecord: {
    write: (p) =>
      writeFileSync(
        p,
        text([MINIMAL[0]!, rec('2026-01-05T10:00:00.500Z', 'hologram_v9', { x: 1 }), ...MINIMAL.slice(1)]),
      ),
    skippedType: 'hologram_v9',
    messages: 4,
  },
  truncated: { write: (p) => writeFileSync(p, text(MINIMAL.slice(0, 4)) + MINIMAL[4]!.slice(0, 50)) },
  append: (p) =>
    appendFileSync(
      p,
      item('2026-01-05T10:01:00.000Z', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'now run the tests' }],
      }) + '\n',
    ),
};
