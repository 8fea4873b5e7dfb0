import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FIXTURES, runCli, tempDir } from './support/cli.js';

describe('Puffin history with a truncated tail', () => {
  it('is reported with file and byte offset, and nothing already ingested from it is lost', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.puffin'));
    const history = join(project, '.puffin', 'history.json');
    copyFileSync(join(FIXTURES, 'puffin/jdubray-puffin-todo-list/history.json'), history);
    const home = tempDir();
    const first = JSON.parse((await runCli(['ingest', history, '--json'], { STRATA_HOME: home })).stdout);
    expect(first.filesIngested).toBe(1);
    const count = () => {
      const db = new Database(join(home, 'strata.db'), { readonly: true });
      try {
        return (
          db
            .prepare(
              "SELECT COUNT(*) n FROM messages m JOIN sessions s ON s.id = m.session_id WHERE s.agent = 'puffin'",
            )
            .get() as { n: number }
        ).n;
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
    const second = JSON.parse((await runCli(['ingest', history, '--json'], { STRATA_HOME: home })).stdout);
    expect(second.malformedLines).toBe(1);
    expect(second.malformed[0].path).toBe(history);
    expect(second.malformed[0].offset).toBeGreaterThan(0);
    expect(second.malformed[0].offset).toBeLessThanOrEqual(Math.floor(size * 0.6));
    expect(count()).toBe(before);
  });
});

describe('Puffin history above 50 MB', () => {
  it('is streamed into the store (low-memory mode) with every prompt and response', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.puffin'));
    const history = join(project, '.puffin', 'history.json');
    // 1,300 threads of one prompt each, ~40 KB per prompt/response pair: just over 50 MB.
    const filler = 'lorem ipsum dolor sit amet '.repeat(760);
    const prompts = Array.from({ length: 1300 }, (_, i) => ({
      id: `p${i}`,
      parentId: null,
      content: `prompt ${i}: ${filler}`,
      timestamp: 1_760_000_000_000 + i * 1000,
      response: { content: `answer ${i}: ${filler}`, turns: 1, cost: 0.01 },
      children: [],
    }));
    writeFileSync(
      history,
      JSON.stringify({ branches: { main: { id: 'main', name: 'main', prompts } }, activeBranch: 'main' }, null, 2),
    );
    expect(statSync(history).size).toBeGreaterThan(50 * 1024 * 1024);
    const home = tempDir();
    const report = JSON.parse((await runCli(['ingest', history, '--json'], { STRATA_HOME: home })).stdout);
    expect(report.filesIngested).toBe(1);
    expect(report.messagesAdded).toBe(2600);
    const db = new Database(join(home, 'strata.db'), { readonly: true });
    try {
      expect((db.prepare("SELECT COUNT(*) n FROM sessions WHERE agent = 'puffin'").get() as { n: number }).n).toBe(
        1300,
      );
    } finally {
      db.close();
    }
  });
});
