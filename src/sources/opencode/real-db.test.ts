// A real OpenCode 1.17 database (WAL mode, test/fixtures/real-extra): ingested without leaving `-wal` or
// `-shm` in its folder, with counts recounted here by SQL on a separate copy, and OpenCode's placeholder
// titles (`New session - <ISO time>`) never taken for titles.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { REAL_EXTRA, tempDir } from '../../../test/support/paths.js';
import { ingest } from '../../core/ingest/ingest.js';
import { openStore } from '../../store/db.js';
import { isDefaultTitle } from './convert.js';
import { opencodeAdapter } from './index.js';

const REAL_DB = join(REAL_EXTRA, 'opencode/aiand-portfolio-web/opencode.db');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of the real database alone in a fresh folder, optionally changed by `edit` (on another handle). */
function placeDb(edit?: (db: Database.Database) => void): { dir: string; path: string } {
  const root = tempDir('strata-opencode-real-');
  dirs.push(root);
  const dir = join(root, 'opencode');
  mkdirSync(dir);
  const path = join(dir, 'opencode.db');
  copyFileSync(REAL_DB, path);
  if (edit) {
    const db = new Database(path);
    edit(db);
    db.close();
  }
  return { dir, path };
}

function recount(): { sessions: number; messages: number; titles: string[] } {
  const { path } = placeDb();
  const db = new Database(path, { readonly: true });
  try {
    const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const titles = (db.prepare('SELECT title FROM session ORDER BY title').all() as { title: string }[]).map(
      (r) => r.title,
    );
    return { sessions: n('SELECT COUNT(*) n FROM session'), messages: n('SELECT COUNT(*) n FROM message'), titles };
  } finally {
    db.close();
  }
}

async function ingestDb(path: string, storeDir: string) {
  const store = openStore(join(storeDir, 'strata.db'));
  try {
    const report = await ingest({ store, paths: [path], adapters: [opencodeAdapter], env: {}, cwd: storeDir });
    const titles = (
      store.db
        .prepare(
          `SELECT COALESCE(s.title, st.first_prompt) AS title FROM sessions s
             JOIN session_stats st ON st.session_id = s.id ORDER BY title`,
        )
        .all() as { title: string }[]
    ).map((r) => r.title);
    return { report, titles };
  } finally {
    store.close();
  }
}

describe('OpenCode database (real file)', () => {
  it('ingests every session and message, twice, without creating a file in its folder', async () => {
    const expected = recount();
    const { dir, path } = placeDb();
    const storeDir = tempDir('strata-opencode-store-');
    dirs.push(storeDir);
    const first = await ingestDb(path, storeDir);
    expect(readdirSync(dir)).toEqual(['opencode.db']);
    expect(first.report.messagesAdded).toBe(expected.messages);
    expect(first.titles).toEqual(expected.titles);
    const second = await ingestDb(path, storeDir);
    expect({ skipped: second.report.filesSkipped, added: second.report.messagesAdded }).toEqual({
      skipped: 1,
      added: 0,
    });
    expect(readdirSync(dir)).toEqual(['opencode.db']);
  });

  it("titles a session still named by OpenCode's placeholder with its first typed prompt", async () => {
    const { path } = placeDb((db) => {
      db.prepare("UPDATE session SET title = 'New session - 2026-06-17T05:37:12.345Z' WHERE title = 'Greeting'").run();
    });
    const storeDir = tempDir('strata-opencode-store-');
    dirs.push(storeDir);
    const { titles } = await ingestDb(path, storeDir);
    expect(titles.some((t) => t.startsWith('New session'))).toBe(false);
    // The session's first user message holds one text part: 'hi' (read by SQL on the fixture).
    expect(titles).toEqual([
      'Commit and push portfolio to GitHub',
      'Flask server for static portfolio PaaS deployment',
      'hi',
    ]);
  });

  it('tells placeholders from titles', () => {
    expect(isDefaultTitle('New session - 2026-07-30T14:04:55.689Z')).toBe(true);
    expect(isDefaultTitle('Child session - 2026-07-30T14:04:55.689Z')).toBe(true);
    expect(isDefaultTitle('New session - fix the login bug')).toBe(false);
    expect(isDefaultTitle('Greeting')).toBe(false);
  });
});
