import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latestSchemaVersion, openStore, type Store } from '../../store/db.js';
import { MIGRATIONS } from '../../store/migrations/index.js';
import { ingest } from '../ingest/ingest.js';
import { testLineAdapter } from '../../../test/support/test-adapter.js';
import { RANK_WINDOW, SUBSTRING_SCAN_BLOCKS, search } from './search.js';
import { formatSearch } from './format-search.js';
import { snippetAround } from './snippet.js';

let dir: string;
/** Matches of "common" in each session: more than the window ranks and the substring fallback scans. */
const PER_SESSION = Math.max(RANK_WINDOW, SUBSTRING_SCAN_BLOCKS);
let store: Store;
const line = (s: string, id: string, t: string) => JSON.stringify({ s, id, t }) + '\n';

// Session "old" is ingested first (lower block ids), session "new" last: "common" matches more blocks
// than the ranking window holds, "rare" matches one block in each session.
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-search-'));
  mkdirSync(join(dir, 'src'));
  const n = PER_SESSION;
  let old = line('old', 'o-rare', 'rare marker in the old session, with 100% literal_underscore');
  for (let i = 0; i < n; i++) old += line('old', `o${i}`, `common word number ${i}`);
  writeFileSync(join(dir, 'src', 'a-old.jsonl'), old);
  await ingest({
    store: (store = openStore(join(dir, 'data', 'strata.db'))),
    adapters: [testLineAdapter],
    env: { TEST_ROOT: join(dir, 'src') },
    cwd: dir,
  });
  let recent = line('new', 'n-rare', 'rare marker in the new session');
  for (let i = 0; i < n; i++) recent += line('new', `n${i}`, `common word number ${i}`);
  writeFileSync(join(dir, 'src', 'b-new.jsonl'), recent);
  await ingest({ store, adapters: [testLineAdapter], env: { TEST_ROOT: join(dir, 'src') }, cwd: dir });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('search ranking window', () => {
  it('ranks every match of a query within the window, with complete counts', () => {
    const result = search(store.db, { query: 'rare marker' });
    expect(result.window).toBeUndefined();
    expect(result.sessions.map((s) => s.id).sort()).toEqual(['new', 'old']);
    expect(result.sessions.every((s) => s.hitCount === 1)).toBe(true);
  });

  it('ranks only the newest RANK_WINDOW matches of a common word, and says so', () => {
    const result = search(store.db, { query: 'common' });
    expect(result.window).toEqual({ ranked: RANK_WINDOW });
    expect(result.sessions.map((s) => s.id)).toEqual(['new']);
    expect(result.sessions[0]!.hitCount).toBe(RANK_WINDOW);
    expect(formatSearch(result, 'hits')).toMatch(
      /more than 1,000 blocks match: these are the best of the newest 1,000/,
    );
  });

  it('searches a word that fills the window by itself as that word only, a rarer one in all its forms', () => {
    expect(search(store.db, { query: 'common' }).match).toBe('"common"');
    expect(search(store.db, { query: 'common marker' }).match).toBe('("common" AND ("marker" OR "marker"*))');
    expect(search(store.db, { query: 'common', exhaustive: true }).match).toBe('("common" OR "common"*)');
    expect(search(store.db, { query: 'common', session: 'old' }).match).toBe('("common" OR "common"*)');
  });

  it('ranks and counts every match when filtered or exhaustive (-l, -c)', () => {
    const exhaustive = search(store.db, { query: 'common', exhaustive: true, limit: 100 });
    expect(exhaustive.window).toBeUndefined();
    expect(Object.fromEntries(exhaustive.sessions.map((s) => [s.id, s.hitCount]))).toEqual({
      new: PER_SESSION,
      old: PER_SESSION,
    });
    const scoped = search(store.db, { query: 'common', session: 'old' });
    expect(scoped.window).toBeUndefined();
    expect(scoped.sessions[0]!.hitCount).toBe(PER_SESSION);
    expect(formatSearch(scoped, 'hits')).not.toMatch(/newest/);
  });

  it('substring fallback scans the newest blocks (a whole session with -s) and treats % and _ literally', () => {
    // "iteral_under" starts mid-word, so only the substring scan could find it, and the old
    // session's block is older than the newest SUBSTRING_SCAN_BLOCKS.
    expect(PER_SESSION + 1).toBeGreaterThan(SUBSTRING_SCAN_BLOCKS);
    expect(search(store.db, { query: 'iteral_under' }).sessions).toEqual([]);
    // Within one session, every block is scanned.
    const inOld = search(store.db, { query: 'iteral_under', session: 'old' });
    expect(inOld.mode).toBe('substring');
    expect(inOld.sessions.map((s) => s.hitCount)).toEqual([1]);
    const inScope = search(store.db, { query: 'r_number', session: 'new' });
    expect(inScope.sessions).toEqual([]); // "_" is not a LIKE wildcard: "r number" must not match
  });
});

describe('search-hits migration (schema 4)', () => {
  it('upgrades a schema-3 store in place: data kept, blocks_hit added and used by the window ranking', async () => {
    const home = mkdtempSync(join(tmpdir(), 'strata-mig-'));
    try {
      const v3 = openStore(join(home, 'strata.db'), { migrations: MIGRATIONS.filter((m) => m.version <= 3) });
      // The rows an ingest of that version wrote (today's writer writes only today's schema).
      v3.db.exec(`
        INSERT INTO sessions (id, agent, external_id, message_count, prompt_count, started_at, ended_at, updated_at)
          VALUES (1, 'claude-code', 's', 1, 1, '2025-01-01T00:00:01.000Z', '2025-01-01T00:00:01.000Z', 'now');
        INSERT INTO messages (id, session_id, key, seq, role, kind, timestamp, line) VALUES (1, 1, 'm1', 1, 'user',
          'prompt', '2025-01-01T00:00:01.000Z', 1);
        INSERT INTO blocks (id, message_id, idx, kind, field, text) VALUES (1, 1, 0, 'text', 'user', 'kept across
          the upgrade');
        INSERT INTO blocks_fts (rowid, text) VALUES (1, 'kept across the upgrade');
      `);
      expect(v3.db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'blocks_hit'").pluck().get()).toBe(0);
      v3.close();
      const v4 = openStore(join(home, 'strata.db'));
      try {
        expect(v4.db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion());
        expect(v4.db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'blocks_hit'").pluck().get()).toBe(1);
        expect(search(v4.db, { query: 'upgrade' }).sessions.map((s) => s.hitCount)).toEqual([1]);
        const plan = v4.db
          .prepare('EXPLAIN QUERY PLAN SELECT k.field FROM blocks k INDEXED BY blocks_hit WHERE k.id = 1')
          .all() as { detail: string }[];
        expect(plan.map((p) => p.detail).join(' ')).toMatch(/COVERING INDEX blocks_hit/);
      } finally {
        v4.close();
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('snippetAround', () => {
  it('cuts words from a window around the match in a long text', () => {
    const words = Array.from({ length: 200_000 }, (_, i) => `w${i}`);
    words[150_000] = 'needle';
    const snippet = snippetAround(words.join(' '), /needle/gi, 3);
    expect(snippet).toBe('… w149997 w149998 w149999 needle w150001 w150002 w150003 …');
  });

  it('applies clean() to the window (tool input escapes)', () => {
    expect(snippetAround('{"command":"ls\\nfind needle\\tnow"}', /needle/gi, 2, (s) => s.replace(/\\[nt]/g, ' '))).toBe(
      '{"command":"ls find needle now"}',
    );
  });
});
