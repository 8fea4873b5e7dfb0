// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Goose `sessions/sessions.db` with the schema of a real one (test/fixtures/real-extra/goose, schema 5) and
// messages serialized as Goose's source writes them (a prompt, a shell request, its response, a reply).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const T0 = 1_767_607_200;
export const GOOSE_SCHEMA = `
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
INSERT INTO schema_version (version) VALUES (5);
CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
  user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
  created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
  extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER,
  accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
  schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
  role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL,
  timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT);`;

export type GooseRow = { role: string; content: unknown };
const call = { name: 'developer__shell', arguments: { command: 'ls src' } };
export const GOOSE_ROWS: GooseRow[] = [
  { role: 'user', content: [{ type: 'text', text: 'list the files in src' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Listing src.' },
      { type: 'toolRequest', id: 'toolu_1', toolCall: { status: 'success', value: call } },
    ],
  },
  {
    role: 'user',
    content: [
      {
        type: 'toolResponse',
        id: 'toolu_1',
        toolResult: { status: 'success', value: { content: [{ type: 'text', text: 'index.ts' }], isError: false } },
      },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'There is one file.' }] },
];

export function writeGooseDb(path: string, rows: GooseRow[], name = 'List src'): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(GOOSE_SCHEMA);
  db.prepare("INSERT INTO sessions (id, name, working_dir) VALUES ('20260105_1', ?, '/work/contract-app')").run(name);
  const put = db.prepare(
    'INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json) ' +
      "VALUES ('20260105_1', ?, ?, ?, ?)",
  );
  const visible = JSON.stringify({ userVisible: true, agentVisible: true });
  rows.forEach((r, i) =>
    put.run(r.role, typeof r.content === 'string' ? r.content : JSON.stringify(r.content), T0 + i, visible),
  );
  db.close();
}

export const gooseContractFixture: AdapterContractFixtures = {
  sessionPath: join('sessions', 'sessions.db'),
  makeTree(root) {
    const db = join(root, 'sessions', 'sessions.db');
    mkdirSync(dirname(db), { recursive: true });
    writeGooseDb(db, GOOSE_ROWS);
    const legacy = join(root, 'sessions', '20250301_101500.jsonl');
    writeFileSync(
      legacy,
      `${JSON.stringify({ working_dir: '/work/old', description: 'Old session' })}\n` +
        `${JSON.stringify({ role: 'user', created: T0, content: [{ type: 'text', text: 'hello' }] })}\n`,
    );
    writeFileSync(join(root, 'sessions', 'notes.txt'), 'not a session');
    mkdirSync(join(root, 'logs'), { recursive: true });
    writeFileSync(join(root, 'logs', 'goose.jsonl'), '{"level":"info"}\n');
    return [db, legacy];
  },
  minimal: { write: (p) => writeGooseDb(p, GOOSE_ROWS), sessions: 1, messages: 4, project: '/work/contract-app' },
  unrelated: [
    { path: 'notes.md', content: '# Goose notes\n\nsessions.db is SQLite format 3.\n' },
    { path: 'sessions/config.json', content: '{"working_dir":"/x","sessions":[]}' },
    { path: 'sessions/other.jsonl', content: '{"type":"user","message":{"role":"user","content":"hi"}}\n' },
  ],
  malformed: {
    write: (p) =>
      writeGooseDb(p, [GOOSE_ROWS[0]!, { role: 'assistant', content: '[{"type":' }, ...GOOSE_ROWS.slice(2)]),
    lines: [2],
    messages: 3,
  },
  unknownRecord: {
    write: (p) =>
      writeGooseDb(p, [GOOSE_ROWS[0]!, { role: 'assistant', content: [{ type: 'hologram', x: 1 }] }, GOOSE_ROWS[3]!]),
    skippedType: 'part:hologram',
    messages: 2,
  },
  truncated: {
    write(p) {
      writeGooseDb(p, GOOSE_ROWS);
      writeFileSync(p, readFileSync(p).subarray(0, 6000));
    },
  },
  editOne(p) {
    const db = new Database(p);
    db.prepare('UPDATE messages SET content_json = ? WHERE id = 4').run(
      JSON.stringify([{ type: 'text', text: 'There is exactly one file.' }]),
    );
    db.close();
    return { key: 'i:3', marker: 'exactly' };
  },
};
