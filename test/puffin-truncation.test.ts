import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, truncateSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FIXTURES, runCli, tempDir } from './helpers.js';

describe('Puffin history with a truncated tail', () => {
  it('is reported with file and byte offset, and nothing already ingested from it is lost', () => {
    const project = tempDir();
    mkdirSync(join(project, '.puffin'));
    const history = join(project, '.puffin', 'history.json');
    copyFileSync(join(FIXTURES, 'puffin/jdubray-puffin-todo-list/history.json'), history);
    const home = tempDir();
    const first = JSON.parse(runCli(['ingest', history, '--json'], { STRATA_HOME: home }).stdout);
    expect(first.filesIngested).toBe(1);
    const count = () => {
      const db = new Database(join(home, 'strata.db'), { readonly: true });
      try {
        return (db.prepare("SELECT COUNT(*) n FROM messages m JOIN sessions s ON s.id = m.session_id WHERE s.agent = 'puffin'").get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    const before = count();
    expect(before).toBe(first.messagesAdded);
    // A writer died halfway: the file ends mid-document.
    const size = statSync(history).size;
    truncateSync(history, Math.floor(size * 0.6));
    expect(() => JSON.parse(readFileSync(history, 'utf8'))).toThrow();
    const second = JSON.parse(runCli(['ingest', history, '--json'], { STRATA_HOME: home }).stdout);
    expect(second.malformedLines).toBe(1);
    expect(second.malformed[0].path).toBe(history);
    expect(second.malformed[0].offset).toBeGreaterThan(0);
    expect(second.malformed[0].offset).toBeLessThanOrEqual(Math.floor(size * 0.6));
    expect(count()).toBe(before);
  });
});
