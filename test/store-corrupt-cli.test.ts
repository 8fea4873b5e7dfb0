// A store whose later pages are zeroed (header intact): every command exits 4 with one line, nothing written.
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, openSync, readFileSync, statSync, writeSync, closeSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { FIXTURES, runCli, tempDir } from './support/cli.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
const FILE = join(
  FIXTURES,
  'claude-code',
  'omarchy-backup',
  'projects',
  '-home-vwestberg-Claude',
  '1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl',
);

/** A store holding FILE, its pages from `fraction` of the file on zeroed; returns its STRATA_HOME. */
async function zeroedStore(fraction: number, journal: 'wal' | 'delete'): Promise<{ home: string; db: string }> {
  const home = tempDir('strata-corrupt-');
  mkdirSync(home, { recursive: true });
  const ok = await runCli(['ingest', FILE], { STRATA_HOME: home, HOME: home });
  expect(ok.code, ok.stderr).toBe(0);
  const db = join(home, 'strata.db');
  if (journal === 'delete') {
    const conn = new Database(db);
    conn.pragma('journal_mode = DELETE');
    conn.close();
  }
  const size = statSync(db).size;
  const start = Math.floor((size / 4096) * fraction) * 4096;
  const fd = openSync(db, 'r+');
  writeSync(fd, Buffer.alloc(size - start), 0, size - start, start);
  closeSync(fd);
  return { home, db };
}

function expectUnusable(r: { code: number; stderr: string }): void {
  expect(r.code, r.stderr).toBe(4);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^strata: the store .*is unusable \(corrupted/);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('a store with zeroed pages', () => {
  it('is exit 4 with one line in every command that meets the damage, and the file is not modified', async () => {
    const { home, db } = await zeroedStore(0.5, 'wal');
    const before = readFileSync(db);
    const env = { STRATA_HOME: home, HOME: home };
    for (const args of [
      ['search', 'screen'],
      ['search', '-E', 'scre+n'],
      ['read', '1fb5e404'],
      ['stats'],
      ['ingest', FILE],
    ]) {
      expectUnusable(await runCli(args, env));
    }
    expect(readFileSync(db).equals(before)).toBe(true);
  });

  it(
    'a rollback-journal store is checked before ingest switches ' + 'it to WAL: refused, byte for byte untouched',
    async () => {
      const { home, db } = await zeroedStore(0.6, 'delete');
      const before = readFileSync(db);
      const copy = `${db}.before`;
      copyFileSync(db, copy);
      expectUnusable(await runCli(['ingest', FILE], { STRATA_HOME: home, HOME: home }));
      expect(readFileSync(db).equals(before)).toBe(true);
      expect(existsSync(`${db}-wal`)).toBe(false);
    },
  );

  it('damage first met while an ingest writes (the blocks table) is exit 4, not a problem of the file', async () => {
    const home = tempDir('strata-corrupt-write-');
    const env = { STRATA_HOME: home, HOME: home };
    expect((await runCli(['ingest', FILE], env)).code).toBe(0);
    const dbPath = join(home, 'strata.db');
    const conn = new Database(dbPath);
    conn.pragma('wal_checkpoint(TRUNCATE)');
    const pageSize = conn.pragma('page_size', { simple: true }) as number;
    const { rootpage } = conn.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'blocks'").get() as {
      rootpage: number;
    };
    conn.close();
    const fd = openSync(dbPath, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0x55), 0, pageSize, (rootpage - 1) * pageSize);
    closeSync(fd);
    const other = join(FIXTURES, 'claude-code', 'obra-episodic-memory', 'tiny-conversation.jsonl');
    expectUnusable(await runCli(['ingest', other], env));
  });
});
