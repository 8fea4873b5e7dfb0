// Goose: the one real `sessions.db` found in public repositories (test/fixtures/real-extra/goose, schema 5,
// December 2025) holds a single session without messages. So its schema is read as is, and messages are
// added to a copy of it serialized as Goose's own source writes them; every count is recounted in SQL.
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { openStore } from '../../store/db.js';
import { gooseAdapter } from './index.js';
import { parseGooseFile } from './parser.js';
import { gooseDefaultRoots } from './paths.js';

const REAL = join(REAL_EXTRA, 'goose', 'jwp23-dotfiles', 'sessions');
const text = (t: string) => ({ type: 'text', text: t });
const request = (id: string, name: string, args: object) => ({
  type: 'toolRequest',
  id,
  toolCall: { status: 'success', value: { name, arguments: args } },
});
const response = (id: string, value: unknown) => ({
  type: 'toolResponse',
  id,
  toolResult: { status: 'success', value },
});
const MESSAGES: [string, string, unknown[], object?][] = [
  ['20251202_1', 'user', [text('add a greeting to main.rs')]],
  [
    '20251202_1',
    'assistant',
    [
      { type: 'thinking', thinking: 'Write it.', signature: 's' },
      request('t1', 'developer__text_editor', { command: 'write', path: '/p/main.rs', file_text: 'fn main() {\n}\n' }),
    ],
  ],
  ['20251202_1', 'user', [response('t1', [text('Wrote /p/main.rs')])]],
  [
    '20251202_1',
    'assistant',
    [
      request('t2', 'developer__text_editor', {
        command: 'str_replace',
        path: '/p/main.rs',
        old_str: '}',
        new_str: '  hi();\n}',
      }),
      request('t3', 'developer__shell', { command: 'cargo build' }),
    ],
  ],
  [
    '20251202_1',
    'user',
    [
      response('t2', { content: [text('Edited')], isError: false }),
      response('t3', { content: [text('error[E0425]')], isError: true }),
    ],
  ],
  ['20251202_1', 'user', [text('Summary of the conversation so far')], { userVisible: false, agentVisible: true }],
  [
    '20251202_1',
    'assistant',
    [text('Done.'), { type: 'toolConfirmationRequest', id: 'c', toolName: 'x', arguments: {} }],
  ],
  ['20251203_1', 'user', [text('review the diff')]],
  ['20251203_1', 'assistant', [text('Looks fine.')]],
  ['20251203_2', 'user', [text('name this session')]],
];

function copyWithMessages(dir: string): string {
  const path = join(dir, 'sessions', 'sessions.db');
  rmSync(join(dir, 'sessions'), { recursive: true, force: true });
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  copyFileSync(join(REAL, 'sessions.db'), path);
  const db = new Database(path);
  db.prepare("UPDATE sessions SET name = 'Greeting in main.rs', user_set_name = 0").run();
  const add = db.prepare("INSERT INTO sessions (id, name, session_type, working_dir) VALUES (?, ?, ?, '/p')");
  add.run('20251203_1', 'CLI Session', 'sub_agent');
  add.run('20251203_2', 'namer', 'hidden');
  const put = db.prepare(
    'INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json) VALUES (?, ?, ?, ?, ?)',
  );
  MESSAGES.forEach(([s, role, content, meta], i) =>
    put.run(
      s,
      role,
      JSON.stringify(content),
      1764694800 + i,
      JSON.stringify(meta ?? { userVisible: true, agentVisible: true }),
    ),
  );
  db.close();
  return path;
}

function recount(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare(
        `WITH p AS (SELECT m.id, m.session_id, m.role, m.metadata_json, json_extract(c.value, '$.type') AS type
                      FROM messages m JOIN sessions s ON s.id = m.session_id, json_each(m.content_json) c
                     WHERE s.session_type <> 'hidden')
         SELECT (SELECT COUNT(DISTINCT id) FROM p WHERE role = 'user' AND type = 'text'
                   AND json_extract(metadata_json, '$.userVisible') = 1) AS prompts,
                (SELECT COUNT(DISTINCT id) FROM p WHERE role = 'user' AND type = 'text'
                   AND json_extract(metadata_json, '$.userVisible') = 0) AS context,
                (SELECT COUNT(DISTINCT id) FROM p WHERE role = 'assistant') AS replies,
                (SELECT COUNT(*) FROM p WHERE type = 'toolRequest') AS calls,
                (SELECT COUNT(*) FROM p WHERE type = 'toolResponse') AS results,
                (SELECT COUNT(DISTINCT session_id) FROM p) AS sessions`,
      )
      .get();
  } finally {
    db.close();
  }
}

describe('Goose sessions.db', () => {
  it('reads the real database: its one session has no message, and nothing is left beside it', async () => {
    const out = await parseGooseFile({ path: join(REAL, 'sessions.db') });
    expect(out).toMatchObject({ sessions: [], messages: [], malformed: [], skipped: { 'session:empty': 1 } });
    expect(out.notSession).toBeUndefined();
    expect(readdirSync(REAL)).toEqual(['sessions.db']);
  });

  it('reads messages added to it with the counts of a SQL recount', async () => {
    const dir = tempDir('strata-goose-');
    try {
      const path = copyWithMessages(dir);
      const out = await parseGooseFile({ path });
      expect(out.malformed).toEqual([]);
      const kinds = (k: string) => out.messages.filter((m) => m.kind === k).length;
      const blocks = out.messages.flatMap((m) => m.blocks);
      expect({
        prompts: kinds('prompt'),
        context: kinds('meta'),
        replies: out.messages.filter((m) => m.role === 'assistant').length,
        calls: blocks.filter((b) => b.kind === 'tool_call').length,
        results: blocks.filter((b) => b.kind === 'tool_result').length,
        sessions: out.sessions.length,
      }).toEqual(recount(path));
      expect(out.sessions).toEqual([
        expect.objectContaining({
          key: '20251202_1',
          title: 'Greeting in main.rs',
          project: '/Users/jpresley/workspace/tmp/vsl',
        }),
        expect.objectContaining({ key: '20251203_1', project: '/p', meta: { sessionType: 'sub_agent' } }),
      ]);
      expect(out.sessions[1]!.title).toBeUndefined();
      expect(blocks.find((b) => b.toolCallId === 't3' && b.kind === 'tool_result')).toMatchObject({
        isError: true,
        toolName: 'developer__shell',
        text: 'error[E0425]',
      });
      expect(out.skipped).toMatchObject({ 'session:hidden': 1, 'part:toolConfirmationRequest': 1 });
      expect(out.messages[0]!.timestamp).toBe(new Date(1764694800 * 1000).toISOString());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts the shell call, edited lines and files through the ingest', async () => {
    const dir = tempDir('strata-goose-ingest-');
    const store = openStore(join(dir, 'strata.db'));
    try {
      const path = copyWithMessages(join(dir, 'h'));
      await ingest({ store, paths: [path], adapters: [gooseAdapter], env: {}, cwd: dir });
      const row = store.db
        .prepare(
          `SELECT t.bash_calls AS bash, t.lines_added AS added, t.lines_removed AS removed, t.files FROM sessions s
             JOIN session_stats t ON t.session_id = s.id WHERE s.external_id = '20251202_1'`,
        )
        .get() as { bash: number; added: number; removed: number; files: string };
      // write: 2 lines; str_replace: 1 line out, 2 in; one file.
      expect({ ...row, files: Object.keys(JSON.parse(row.files)) }).toEqual({
        bash: 1,
        added: 4,
        removed: 1,
        files: ['/p/main.rs'],
      });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Goose sessions/<id>.jsonl (before sessions.db)', () => {
  const LINES = [
    { working_dir: '/home/u/app', description: 'Fix the parser', message_count: 2, total_tokens: 10 },
    { role: 'user', created: 1741537027, content: [text('fix the parser')] },
    {
      role: 'assistant',
      created: 1741537030,
      content: [text('Fixed.'), request('t1', 'developer__shell', { command: 'ls' })],
    },
    { role: 'user', created: 1741537031, content: [response('t1', [text('a.rs')])] },
  ];

  it('reads the metadata line and messages, and leaves a file Goose imported into sessions.db', async () => {
    const dir = tempDir('strata-goose-legacy-');
    try {
      const path = join(dir, 'sessions', '20250309_181707.jsonl');
      mkdirSync(join(dir, 'sessions'), { recursive: true });
      writeFileSync(path, `${LINES.map((l) => JSON.stringify(l)).join('\n')}\n`);
      expect(gooseAdapter.discover(dir)).toEqual([path]);
      expect(gooseAdapter.detect(path, LINES.map((l) => JSON.stringify(l)).join('\n'))).toBe(true);
      const out = await parseGooseFile({ path });
      expect(out.sessions).toEqual([
        { key: '20250309_181707', agent: 'goose', project: '/home/u/app', title: 'Fix the parser' },
      ]);
      expect(out.messages.map((m) => [m.key, m.kind, m.blocks.length])).toEqual([
        ['l:2', 'prompt', 1],
        ['l:3', 'response', 2],
        ['l:4', 'tool_output', 1],
      ]);
      const db = new Database(join(dir, 'sessions', 'sessions.db'));
      db.exec("CREATE TABLE sessions (id TEXT PRIMARY KEY); INSERT INTO sessions VALUES ('20250309_181707')");
      db.close();
      expect((await parseGooseFile({ path })).notSession).toMatch(/imported into sessions.db/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('looks in the data folder of every platform and under GOOSE_PATH_ROOT', () => {
    expect(gooseDefaultRoots({ HOME: '/h' }, 'linux')).toEqual(['/h/.local/share/goose/sessions']);
    expect(gooseDefaultRoots({ HOME: '/h' }, 'darwin')).toEqual(['/h/.local/share/goose/sessions']);
    expect(gooseDefaultRoots({ HOME: '/h', XDG_DATA_HOME: '/x' }, 'linux')).toEqual(['/x/goose/sessions']);
    expect(gooseDefaultRoots({ HOME: '/h', GOOSE_PATH_ROOT: '/g' }, 'linux')).toEqual(['/g/data/sessions']);
    expect(gooseDefaultRoots({ HOME: '/h', APPDATA: 'C:/A' }, 'win32')).toEqual([
      join('C:/A', 'Block', 'goose', 'data', 'sessions'),
    ]);
  });
});
