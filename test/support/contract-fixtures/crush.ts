// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Crush `.crush/crush.db` (one session: a prompt, a bash call and its result), its malformed, unknown-part,
// truncated and edited variants, and a temp global data folder whose `projects.json` names a project.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const T0 = 1_767_607_200;
const SCHEMA = `
CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL,
  message_count INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0, updated_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL, summary_message_id TEXT);
CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL,
  parts TEXT NOT NULL default '[]', model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  finished_at INTEGER, provider TEXT);`;

type Row = { id: string; role: string; parts: unknown };
const USER: Row = { id: 'm1', role: 'user', parts: [{ type: 'text', data: { text: 'list the files in src' } }] };
const CALL: Row = {
  id: 'm2',
  role: 'assistant',
  parts: [
    { type: 'tool_call', data: { id: 'call_1', name: 'bash', input: '{"command":"ls src"}', finished: true } },
    { type: 'finish', data: { reason: 'tool_use', time: T0 + 1 } },
  ],
};
const RESULT: Row = {
  id: 'm3',
  role: 'tool',
  parts: [{ type: 'tool_result', data: { tool_call_id: 'call_1', name: 'bash', content: 'index.ts\nmain.ts' } }],
};

function writeDb(path: string, rows: Row[]): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(SCHEMA);
  db.prepare("INSERT INTO sessions (id, title, updated_at, created_at) VALUES ('s1', 'List files', ?, ?)").run(T0, T0);
  const put = db.prepare("INSERT INTO messages VALUES (?, 's1', ?, ?, 'claude-sonnet-4', ?, ?, NULL, 'anthropic')");
  rows.forEach((r, i) =>
    put.run(r.id, r.role, typeof r.parts === 'string' ? r.parts : JSON.stringify(r.parts), T0 + i, T0 + i),
  );
  db.close();
}

export const crushContractFixture: AdapterContractFixtures = {
  sessionPath: join('.crush', 'crush.db'),
  makeTree(root) {
    const here = join(root, '.crush', 'crush.db');
    const other = join(root, 'work', 'other', '.crush', 'crush.db');
    for (const p of [here, other]) {
      mkdirSync(dirname(p), { recursive: true });
      writeDb(p, [USER, CALL, RESULT]);
    }
    writeFileSync(join(root, 'projects.json'), JSON.stringify({ projects: [{ path: join(root, 'work', 'other') }] }));
    writeFileSync(join(root, 'crush.json'), '{}');
    mkdirSync(join(root, '.crush', 'logs'), { recursive: true });
    writeFileSync(join(root, '.crush', 'logs', 'crush.log'), '{"level":"info"}\n');
    return [here, other];
  },
  minimal: { write: (p) => writeDb(p, [USER, CALL, RESULT]), sessions: 1, messages: 3 },
  unrelated: [
    { path: 'notes.md', content: '# Crush notes\n\nSQLite format 3 is what crush.db uses.\n' },
    { path: 'crush.json', content: '{"sessions":[],"title":"not a database"}' },
    { path: 'backup/crush.db', content: 'this is not a SQLite database' },
  ],
  malformed: { write: (p) => writeDb(p, [USER, { ...CALL, parts: '[{"type":' }, RESULT]), lines: [2], messages: 2 },
  unknownRecord: {
    write: (p) =>
      writeDb(p, [USER, { ...CALL, parts: [...(CALL.parts as unknown[]), { type: 'hologram', data: {} }] }, RESULT]),
    skippedType: 'part:hologram',
    messages: 3,
  },
  truncated: {
    write(p) {
      writeDb(p, [USER, CALL, RESULT]);
      writeFileSync(p, readFileSync(p).subarray(0, 6000));
    },
  },
  editOne(p) {
    const db = new Database(p);
    const parts = [
      { type: 'tool_result', data: { tool_call_id: 'call_1', name: 'bash', content: 'exactly index.ts' } },
    ];
    db.prepare("UPDATE messages SET parts = ? WHERE id = 'm3'").run(JSON.stringify(parts));
    db.close();
    return { key: 'm3', marker: 'exactly' };
  },
};
