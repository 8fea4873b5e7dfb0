// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// `opencode.db` (one session: a prompt and a reply with a completed tool call), its malformed,
// unknown-part, truncated and edited variants, and a temp ~/.local/share/opencode tree.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const CWD = '/work/contract-app';
const T0 = 1_767_607_200_000;
const SCHEMA = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, time_created integer NOT NULL, time_updated
  integer NOT NULL, sandboxes text NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory
  text NOT NULL,
  title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated
  integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT
  NULL, time_updated integer NOT NULL, data text NOT NULL);`;

type Row = { id: string; data: unknown; parts?: { id: string; data: unknown }[] };

const USER: Row = {
  id: 'msg_1',
  data: {
    role: 'user',
    time: { created: T0 },
    agent: 'build',
    model: { providerID: 'anthropic', modelID: 'claude-sonnet-4' },
  },
  parts: [{ id: 'prt_1a', data: { type: 'text', text: 'list the files in src' } }],
};
const REPLY: Row = {
  id: 'msg_2',
  data: {
    role: 'assistant',
    time: { created: T0 + 1000, completed: T0 + 2000 },
    parentID: 'msg_1',
    modelID: 'claude-sonnet-4',
    providerID: 'anthropic',
    path: { cwd: CWD, root: CWD },
    tokens: { input: 10, output: 4, reasoning: 0, cache: { read: 0, write: 0 } },
  },
  parts: [
    {
      id: 'prt_2a',
      data: {
        type: 'tool',
        tool: 'bash',
        callID: 'call_1',
        state: {
          status: 'completed',
          input: { command: 'ls src' },
          output: 'index.ts\nmain.ts',
          time: { start: 1, end: 2 },
        },
      },
    },
    { id: 'prt_2b', data: { type: 'text', text: 'There are two files.' } },
  ],
};

function writeDb(path: string, rows: Row[]): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(SCHEMA);
  db.prepare('INSERT INTO project VALUES (?, ?, ?, ?, ?)').run('prj_1', CWD, T0, T0, '[]');
  db.prepare("INSERT INTO session VALUES ('ses_1', 'prj_1', NULL, 'ses-1', ?, 'List files', '1.0.0', ?, ?)").run(
    CWD,
    T0,
    T0,
  );
  rows.forEach((row, i) => {
    const json = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
    db.prepare("INSERT INTO message VALUES (?, 'ses_1', ?, ?, ?)").run(row.id, T0 + i, T0 + i, json(row.data));
    for (const p of row.parts ?? [])
      db.prepare("INSERT INTO part VALUES (?, ?, 'ses_1', ?, ?, ?)").run(p.id, row.id, T0 + i, T0 + i, json(p.data));
  });
  db.close();
}

export const opencodeContractFixture: AdapterContractFixtures = {
  sessionPath: 'opencode.db',
  makeTree(root) {
    writeDb(join(root, 'opencode.db'), [USER, REPLY]);
    // The legacy JSON tree OpenCode leaves behind after migrating it into the database is not read again.
    mkdirSync(join(root, 'storage', 'session', 'prj_1'), { recursive: true });
    writeFileSync(
      join(root, 'storage', 'session', 'prj_1', 'ses_1.json'),
      '{"id":"ses_1","directory":"/work/contract-app"}',
    );
    writeFileSync(join(root, 'auth.json'), '{}');
    mkdirSync(join(root, 'log'), { recursive: true });
    writeFileSync(join(root, 'log', '2026-01-05.log'), 'started\n');
    return [join(root, 'opencode.db')];
  },
  minimal: { write: (p) => writeDb(p, [USER, REPLY]), sessions: 1, messages: 2, project: CWD },
  unrelated: [
    { path: 'notes.md', content: '# OpenCode notes\n\nSQLite format 3 is what opencode.db uses.\n' },
    { path: 'config.json', content: '{"id":"ses_1","title":"not a session file"}' },
    { path: 'backup/opencode.db', content: 'this is not a SQLite database' },
  ],
  malformed: {
    write: (p) => writeDb(p, [USER, { id: 'msg_15', data: '{"role":"user","time":{"created":' }, REPLY]),
    lines: [2],
    messages: 2,
  },
  unknownRecord: {
    write: (p) =>
      writeDb(p, [
        USER,
        { ...REPLY, parts: [...REPLY.parts!, { id: 'prt_2c', data: { type: 'hologram', payload: 1 } }] },
      ]),
    skippedType: 'part:hologram',
    messages: 2,
  },
  truncated: {
    write(p) {
      writeDb(p, [USER, REPLY]);
      writeFileSync(p, readFileSync(p).subarray(0, 6000));
    },
  },
  editOne(p) {
    const db = new Database(p);
    db.prepare('UPDATE part SET data = ?, time_updated = ? WHERE id = ?').run(
      JSON.stringify({ type: 'text', text: 'There are exactly two files.' }),
      T0 + 10_000,
      'prt_2b',
    );
    db.close();
    return { key: 'msg_2', marker: 'exactly' };
  },
};
