// Synthetic fixtures for the source-adapter contract suite (test/support/adapter-contract.ts): a minimal
// Warp `warp.sqlite` (one agent conversation: two prompts and an exchange that only continues the agent's
// work), its malformed, truncated and edited variants, and a temp Warp state folder.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AdapterContractFixtures } from '../adapter-contract.js';

const CWD = '/work/contract-app';
const SCHEMA = `CREATE TABLE ai_queries (id INTEGER PRIMARY KEY NOT NULL, exchange_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL, start_ts DATETIME NOT NULL, input TEXT NOT NULL, working_directory TEXT,
  output_status TEXT NOT NULL, model_id TEXT NOT NULL DEFAULT '');`;
const query = (text: string) => JSON.stringify([{ Query: { text, context: [{ Directory: { pwd: CWD } }] } }]);
const ROWS = [query('list the files in src'), '[]', query('now add a test')];

function writeDb(path: string, inputs: string[]): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(SCHEMA);
  const put = db.prepare("INSERT INTO ai_queries VALUES (?, ?, 'c1', ?, ?, ?, '\"Completed\"', 'gpt-5')");
  inputs.forEach((input, i) => put.run(i + 1, `e${i + 1}`, `2026-01-05 10:0${i}:00.123456789`, input, CWD));
  db.close();
}

export const warpContractFixture: AdapterContractFixtures = {
  sessionPath: 'warp.sqlite',
  makeTree(root) {
    writeDb(join(root, 'warp.sqlite'), ROWS);
    writeFileSync(join(root, 'warp.log'), 'started\n');
    writeFileSync(join(root, 'rudder_telemetry_events.json'), '[]');
    return [join(root, 'warp.sqlite')];
  },
  minimal: { write: (p) => writeDb(p, ROWS), sessions: 1, messages: 2, project: CWD },
  unrelated: [
    { path: 'notes.md', content: '# Warp notes\n\nSQLite format 3 is what warp.sqlite uses.\n' },
    { path: 'rudder_telemetry_events.json', content: '[{"event":"ai_query"}]' },
    { path: 'backup/warp.sqlite', content: 'this is not a SQLite database' },
  ],
  malformed: { write: (p) => writeDb(p, [ROWS[0]!, '[{"Query":', ROWS[2]!]), lines: [2], messages: 2 },
  truncated: {
    write(p) {
      writeDb(p, ROWS);
      writeFileSync(p, readFileSync(p).subarray(0, 6000));
    },
  },
  editOne(p) {
    const db = new Database(p);
    db.prepare("UPDATE ai_queries SET input = ? WHERE exchange_id = 'e3'").run(query('now add exactly one test'));
    db.close();
    return { key: 'e3', marker: 'exactly' };
  },
};
