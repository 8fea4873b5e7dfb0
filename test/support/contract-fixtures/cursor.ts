// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Cursor `globalStorage/state.vscdb` (one composer: a prompt and a reply running a terminal command), its
// malformed, unknown-bubble, truncated and edited variants, and a temp `Cursor/User` tree (with a workspace).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const CWD = '/work/contract-app';
const T0 = 1_767_607_200_000;
const ID = 'c0ffee00-0000-4000-8000-000000000001';
const SCHEMA = `CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);`;

type Bubble = { bubbleId: string; type: number; [k: string]: unknown };
const USER: Bubble = { bubbleId: 'b1', type: 1, text: 'list the files in src', createdAt: new Date(T0).toISOString() };
const REPLY: Bubble = {
  bubbleId: 'b2',
  type: 2,
  text: 'There are two files.',
  createdAt: new Date(T0 + 1000).toISOString(),
  toolFormerData: {
    name: 'run_terminal_cmd',
    toolCallId: 'tool_1',
    status: 'completed',
    rawArgs: JSON.stringify({ command: 'ls src', is_background: false }),
    result: JSON.stringify({ output: 'index.ts\nmain.ts' }),
  },
};

function writeDb(path: string, bubbles: Array<Bubble | string>): void {
  const db = new Database(path);
  db.exec(SCHEMA);
  const ids = bubbles.map((b, i) => (typeof b === 'string' ? `bad${i}` : b.bubbleId));
  const composer = {
    _v: 10,
    composerId: ID,
    name: 'List files',
    createdAt: T0,
    lastUpdatedAt: T0 + 2000,
    fullConversationHeadersOnly: ids.map((bubbleId) => ({ bubbleId })),
    workspaceIdentifier: { id: 'w1', uri: { fsPath: CWD, path: CWD, scheme: 'file' } },
  };
  const put = db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
  put.run(`composerData:${ID}`, JSON.stringify(composer));
  bubbles.forEach((b, i) => put.run(`bubbleId:${ID}:${ids[i]}`, typeof b === 'string' ? b : JSON.stringify(b)));
  db.close();
}

export const cursorContractFixture: AdapterContractFixtures = {
  sessionPath: join('globalStorage', 'state.vscdb'),
  makeTree(root) {
    mkdirSync(join(root, 'globalStorage'), { recursive: true });
    writeDb(join(root, 'globalStorage', 'state.vscdb'), [USER, REPLY]);
    writeFileSync(join(root, 'globalStorage', 'storage.json'), '{}');
    writeFileSync(join(root, 'settings.json'), '{}');
    const ws = join(root, 'workspaceStorage', 'f00d');
    mkdirSync(ws, { recursive: true });
    new Database(join(ws, 'state.vscdb')).exec(SCHEMA).close();
    writeFileSync(join(ws, 'workspace.json'), `{"folder":"file://${CWD}"}`);
    return [join(root, 'globalStorage', 'state.vscdb'), join(ws, 'state.vscdb')];
  },
  minimal: { write: (p) => writeDb(p, [USER, REPLY]), sessions: 1, messages: 2, project: CWD },
  unrelated: [
    { path: 'notes.md', content: '# Cursor notes\n\nSQLite format 3 is what state.vscdb uses.\n' },
    { path: 'globalStorage/storage.json', content: '{"composerData":"not a database"}' },
    { path: 'History/state.vscdb', content: 'SQLite format 3\u0000' },
  ],
  malformed: {
    write: (p) => writeDb(p, [USER, '{"type":2,"text":', REPLY]),
    lines: [2],
    messages: 2,
  },
  unknownRecord: {
    write: (p) => writeDb(p, [USER, { bubbleId: 'b9', type: 7, text: 'a hologram' }, REPLY]),
    skippedType: 'bubble:type:7',
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
    // Cursor rewrites a row by replacing it (the table's UNIQUE ON CONFLICT REPLACE), as here.
    db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)').run(
      `bubbleId:${ID}:b2`,
      JSON.stringify({ ...REPLY, text: 'There are exactly two files.' }),
    );
    db.close();
    return { key: 'b2', marker: 'exactly' };
  },
};
