// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Zed `threads/threads.db` (one thread stored as plain `json`: a prompt and a reply running a terminal
// command), its malformed, unknown-item, truncated and edited variants, and a temp Zed data folder.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const CWD = '/work/contract-app';
const SCHEMA = `CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL,
  data_type TEXT NOT NULL, data BLOB NOT NULL, parent_id TEXT, folder_paths TEXT, folder_paths_order TEXT,
  created_at TEXT);`;
const USER = { User: { id: 'u1', content: [{ Text: 'list the files in src' }] } };
const reply = (text: string) => ({
  Agent: {
    content: [
      { Text: text },
      { ToolUse: { id: 'terminal-1', name: 'terminal', raw_input: '{}', input: { command: 'ls src', cd: CWD } } },
    ],
    tool_results: {
      'terminal-1': { tool_use_id: 'terminal-1', tool_name: 'terminal', is_error: false, content: { Text: 'a.ts' } },
    },
  },
});

function thread(messages: unknown[]): string {
  return JSON.stringify({ title: 'List files', messages, version: '0.3.0', model: { provider: 'x', model: 'm' } });
}

function writeDb(path: string, threads: string[]): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(SCHEMA);
  const put = db.prepare("INSERT INTO threads VALUES (?, 'List files', ?, 'json', ?, NULL, ?, NULL, ?)");
  threads.forEach((data, i) =>
    put.run(`t${i + 1}`, '2026-01-05T10:00:00Z', Buffer.from(data), CWD, '2026-01-05T10:00:00Z'),
  );
  db.close();
}

export const zedContractFixture: AdapterContractFixtures = {
  sessionPath: join('threads', 'threads.db'),
  makeTree(root) {
    mkdirSync(join(root, 'threads'), { recursive: true });
    writeDb(join(root, 'threads', 'threads.db'), [thread([USER, reply('Listing.')])]);
    mkdirSync(join(root, 'db', '0-stable'), { recursive: true });
    writeFileSync(join(root, 'db', '0-stable', 'db.sqlite'), 'SQLite format 3\u0000');
    writeFileSync(join(root, 'threads.db'), 'not in a threads folder');
    return [join(root, 'threads', 'threads.db')];
  },
  minimal: { write: (p) => writeDb(p, [thread([USER, reply('Listing.')])]), sessions: 1, messages: 2, project: CWD },
  unrelated: [
    { path: 'notes.md', content: '# Zed notes\n\nSQLite format 3 is what threads.db uses.\n' },
    { path: 'settings.json', content: '{"agent":{"default_model":"m"}}' },
    { path: 'conversations/chat.zed.json', content: '{"messages":[]}' },
  ],
  malformed: {
    write: (p) => writeDb(p, [thread([USER, reply('Listing.')]), '{"messages":[', thread([USER])]),
    lines: [2],
    messages: 3,
  },
  unknownRecord: {
    write: (p) => writeDb(p, [thread([USER, { Hologram: { x: 1 } }, reply('Listing.')])]),
    skippedType: 'message:Hologram',
    messages: 2,
  },
  truncated: {
    write(p) {
      writeDb(p, [thread([USER, reply('Listing.')])]);
      writeFileSync(p, readFileSync(p).subarray(0, 6000));
    },
  },
  editOne(p) {
    const db = new Database(p);
    db.prepare("UPDATE threads SET data = ? WHERE id = 't1'").run(Buffer.from(thread([USER, reply('Exactly this.')])));
    db.close();
    return { key: 'm1', marker: 'Exactly' };
  },
};
