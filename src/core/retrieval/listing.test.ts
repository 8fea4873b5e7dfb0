import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { MIGRATIONS } from '../../store/migrations/index.js';
import { ingest } from '../ingest/ingest.js';
import { testLineAdapter } from '../../../test/support/test-adapter.js';
import { listingLines, shortTime } from './format-listing.js';
import { listSessions, type ListingEntry } from './session-listing.js';
import { TITLE_CHARS, ensureListing, shownTitle } from './listing-table.js';
import { ensureSessionStats } from '../../store/session-stats.js';

describe('shownTitle', () => {
  it('collapses white space runs and trims, and leaves tidy titles as they are', () => {
    expect([' a\tb  c\n', 'tidy title', 'x\u00a0y', null].map((t) => shownTitle(t))).toEqual([
      'a b c',
      'tidy title',
      'x y',
      '',
    ]);
  });
  it('cuts long titles to TITLE_CHARS characters ending in an ellipsis', () => {
    const shown = shownTitle('word '.repeat(40));
    expect(shown.length).toBe(TITLE_CHARS);
    expect(shown.endsWith('…')).toBe(true);
    expect(shownTitle('x'.repeat(TITLE_CHARS))).toBe('x'.repeat(TITLE_CHARS));
  });
  it('never cuts an emoji in half, and drops NUL characters', () => {
    const shown = shownTitle('x'.repeat(TITLE_CHARS - 2) + '😀😀😀');
    expect(shown).toBe('x'.repeat(TITLE_CHARS - 2) + '…');
    expect(shownTitle('a\0b')).toBe('ab');
  });
  it('marks child sessions (with a parent) and archived sessions', () => {
    expect(shownTitle('t', { relation: 'subagent', parentExternalId: 'p', archived: true })).toBe(
      '[subagent] [archived] t',
    );
    expect(shownTitle('t', { relation: 'subagent', parentExternalId: null })).toBe('t');
  });
});

describe('shortTime', () => {
  it('shows minutes of the stored UTC time', () => {
    expect(shortTime('2025-11-02T10:03:04.000Z')).toBe('2025-11-02 10:03');
    expect(shortTime(null)).toBe('');
  });
});

// The listing is a cache: after any sequence of ingests it must equal a listing computed from nothing.
describe('session listing maintenance', () => {
  const FIXTURES = resolve(
    import.meta.dirname,
    '..',
    '..',
    '..',
    '..',
    'shared',
    'fixtures',
    'real',
    'claude-code',
    'omarchy-backup',
  );
  const PARENT = '1fb5e404-604d-4a2b-baf1-3beb42a67371';
  let dir: string;
  let store: Store;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-listing-'));
    cpSync(FIXTURES, join(dir, 'claude'), { recursive: true });
    store = openStore(join(dir, 'data', 'strata.db'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const project = () => join(dir, 'claude', 'projects', '-home-vwestberg-Claude');
  const run = (paths?: string[]) =>
    ingest({
      store,
      paths,
      env: { HOME: '/home/vwestberg', CLAUDE_CONFIG_DIR: join(dir, 'claude') },
      lockPath: join(dir, 'lock'),
      cwd: dir,
      afterWrite: (db) => ensureListing(db, '/home/vwestberg'),
    });
  const fromScratch = () => {
    const kept = store.db.prepare('SELECT * FROM session_listing ORDER BY session_id').all();
    store.db.exec('DELETE FROM session_listing');
    const entries = listSessions(store.db, { all: true }, '/home/vwestberg');
    const lines = listingLines(store.db, { all: true }, '/home/vwestberg');
    expect(store.db.prepare('SELECT * FROM session_listing ORDER BY session_id').all()).toEqual(kept);
    return { entries, lines };
  };
  const current = () => ({
    entries: listSessions(store.db, { all: true }, '/home/vwestberg'),
    lines: listingLines(store.db, { all: true }, '/home/vwestberg'),
  });
  const parentOf = (entries: ListingEntry[]) => entries.find((e) => e.id === PARENT)!;

  it('rolls subagents that arrive after their parent into the parent row, and archives', async () => {
    await run([join(project(), `${PARENT}.jsonl`)]);
    const alone = parentOf(current().entries);
    expect(alone.subagents).toBe(0);
    expect(current()).toEqual(fromScratch());

    await run([join(project(), PARENT, 'subagents')]);
    const rolled = parentOf(current().entries);
    expect(rolled.subagents).toBeGreaterThan(0);
    expect(rolled.messages).toBeGreaterThan(alone.messages);
    expect(current()).toEqual(fromScratch());

    const subagent = join(project(), PARENT, 'subagents', 'agent-aa9b6813c05338fac.jsonl');
    rmSync(subagent);
    await run();
    const archived = current().entries.filter((e) => e.archived);
    expect(archived.map((e) => e.id)).toEqual(['agent-aa9b6813c05338fac']);
    expect(current().lines.some((l) => l.includes('[subagent] [archived]'))).toBe(true);
    expect(current()).toEqual(fromScratch());
  });

  it('is computed once at ingest: reading changes nothing', async () => {
    await run();
    const before = store.db.prepare('SELECT * FROM session_listing ORDER BY session_id').all();
    expect(before.length).toBe(store.db.prepare('SELECT count(*) FROM sessions').pluck().get());
    expect(ensureListing(store.db, '/home/vwestberg')).toBe(0);
    current();
    expect(store.db.prepare('SELECT * FROM session_listing ORDER BY session_id').all()).toEqual(before);
  });

  it('keys display paths by home: another home recomputes the rows', async () => {
    await run();
    expect(ensureListing(store.db, '/home/someone-else')).toBe(
      store.db.prepare('SELECT count(*) FROM sessions').pluck().get(),
    );
    expect(store.db.prepare('SELECT DISTINCT home FROM session_listing').pluck().all()).toEqual(['/home/someone-else']);
  });

  it('computes missing rows into a temp table while another writer holds the lock, into the store later', async () => {
    await run();
    const expected = current();
    store.db.exec('DELETE FROM session_listing');
    const writer = openStore(store.path);
    try {
      writer.db.prepare('BEGIN IMMEDIATE').run();
      expect(current()).toEqual(expected);
      expect(store.db.prepare('SELECT count(*) FROM main.session_listing').pluck().get()).toBe(0);
      writer.db.prepare('ROLLBACK').run();
    } finally {
      writer.close();
    }
    expect(current()).toEqual(expected);
    expect(store.db.prepare('SELECT count(*) FROM main.session_listing').pluck().get()).toBe(expected.entries.length);
  });
});

// Sessions written straight into a store, as the ingest writer would leave them.
describe('session listing under concurrent writers', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-listing-race-'));
    path = join(dir, 'strata.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const addSession = (
    db: Store['db'],
    agent: string,
    externalId: string,
    extra: { messages?: number; parent?: string } = {},
  ) =>
    db
      .prepare(`INSERT INTO sessions (agent, external_id, started_at, message_count, parent_external_id, relation,
        updated_at)
        VALUES (?, ?, '2025-01-01T00:00:00Z', ?, ?, ?, 'now')`)
      .run(agent, externalId, extra.messages ?? 1, extra.parent ?? null, extra.parent ? 'subagent' : null);

  it('never writes rows computed from a snapshot another writer has moved past', () => {
    const writer = openStore(path);
    const reader = openStore(path);
    try {
      addSession(writer.db, 'claude-code', 'parent0001', { messages: 5 });
      addSession(writer.db, 'claude-code', 'child00001', { messages: 7, parent: 'parent0001' });
      ensureSessionStats(writer.db);
      reader.db.exec('BEGIN');
      expect(reader.db.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(2); // the reader's snapshot
      writer.db
        .prepare(
          'UPDATE sessions SET parent_id = (SELECT id FROM sessions p WHERE p.external_id = ' +
            'sessions.parent_external_id) WHERE parent_external_id IS NOT NULL',
        )
        .run();
      const seen = listSessions(reader.db, {}, '/h');
      reader.db.exec('COMMIT');
      // The reader listed its own snapshot (not yet linked) without storing those rows.
      expect(seen.map((e) => [e.id, e.messages])).toEqual([
        ['child00001', 7],
        ['parent0001', 5],
      ]);
      expect(writer.db.prepare('SELECT count(*) FROM session_listing').pluck().get()).toBe(0);
      expect(ensureListing(writer.db, '/h')).toBe(2);
      expect(listSessions(writer.db, {}, '/h').map((e) => [e.id, e.messages, e.subagents])).toEqual([
        ['parent0001', 12, 1],
      ]);
    } finally {
      reader.close();
      writer.close();
    }
  });

  it('gives every session of a shared external id (two agents) the same, long enough short id', () => {
    const store = openStore(path);
    try {
      addSession(store.db, 'claude-code', 'abcdefgh11');
      addSession(store.db, 'codex', 'abcdefgh11');
      addSession(store.db, 'codex', 'zzzzzzzzzz');
      ensureListing(store.db, '/h');
      store.db.prepare("UPDATE sessions SET title = 'changed' WHERE agent = 'claude-code'").run();
      addSession(store.db, 'codex', 'abcdefgh12');
      ensureListing(store.db, '/h');
      const rows = store.db
        .prepare(
          'SELECT s.agent, s.external_id, l.short_id FROM sessions s JOIN session_listing l ON l.session_id = s.id ' +
            'ORDER BY s.id',
        )
        .raw()
        .all();
      expect(rows).toEqual([
        ['claude-code', 'abcdefgh11', 'abcdefgh11'],
        ['codex', 'abcdefgh11', 'abcdefgh11'],
        ['codex', 'zzzzzzzzzz', 'zzzzzzzz'],
        ['codex', 'abcdefgh12', 'abcdefgh12'],
      ]);
    } finally {
      store.close();
    }
  });
});

describe('short ids in the listing', () => {
  it('lengthens the short ids of neighbours when a new session shares their prefix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-short-'));
    const store = openStore(join(dir, 'strata.db'));
    try {
      mkdirSync(join(dir, 'src'));
      const add = async (session: string) => {
        writeFileSync(
          join(dir, 'src', `${session}.jsonl`),
          JSON.stringify({ s: session, id: 'm1', t: 'hello' }) + '\n',
        );
        await ingest({
          store,
          adapters: [testLineAdapter],
          env: { TEST_ROOT: join(dir, 'src') },
          lockPath: join(dir, 'lock'),
          cwd: dir,
        });
      };
      const shortIds = () => Object.fromEntries(listSessions(store.db).map((e) => [e.id, e.shortId]));
      await add('abcdefgh1111');
      await add('zzzzzzzzzzzz');
      expect(shortIds()).toEqual({ abcdefgh1111: 'abcdefgh', zzzzzzzzzzzz: 'zzzzzzzz' });
      await add('abcdefgh1122');
      expect(shortIds()).toEqual({
        abcdefgh1111: 'abcdefgh111',
        abcdefgh1122: 'abcdefgh112',
        zzzzzzzzzzzz: 'zzzzzzzz',
      });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('index text', () => {
  it('leaves out the columns blank in every row shown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-columns-'));
    const store = openStore(join(dir, 'strata.db'));
    try {
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src', 'one.jsonl'), JSON.stringify({ s: 'one', id: 'm1', t: 'hello' }) + '\n');
      await ingest({
        store,
        adapters: [testLineAdapter],
        env: { TEST_ROOT: join(dir, 'src') },
        lockPath: join(dir, 'lock'),
        cwd: dir,
      });
      const [header, ...rows] = listingLines(store.db);
      expect(header!.split(/ +/)).toEqual(['ID', 'DATE', 'AGENT', 'MSGS', 'USER', 'TITLE']);
      expect(rows).toEqual([
        expect.stringMatching(/^one {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}claude-code {5}1 {5}1 {2}hello$/),
      ]);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('session listing migration (schema 5)', () => {
  it('fills the listing of a schema-4 store on first read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-mig5-'));
    try {
      const v4 = openStore(join(dir, 'strata.db'), { migrations: MIGRATIONS.filter((m) => m.version <= 4) });
      // The rows an ingest of that version wrote (today's writer writes only today's schema).
      v4.db.exec(`
        INSERT INTO sessions (id, agent, external_id, message_count, prompt_count, started_at, ended_at, updated_at)
          VALUES (1, 'claude-code', 'upgraded-session', 1, 1, '2025-01-01T00:00:01.000Z',
            '2025-01-01T00:00:01.000Z', 'now');
        INSERT INTO messages (id, session_id, key, seq, role, kind, timestamp, line) VALUES (1, 1, 'm1', 1, 'user',
          'prompt', '2025-01-01T00:00:01.000Z', 1);
        INSERT INTO blocks (id, message_id, idx, kind, field, text) VALUES (1, 1, 0, 'text', 'user', 'kept');
        INSERT INTO blocks_fts (rowid, text) VALUES (1, 'kept');
        INSERT INTO session_stats (session_id, first_prompt) VALUES (1, 'kept');
      `);
      v4.close();
      const v5 = openStore(join(dir, 'strata.db'));
      try {
        expect(v5.db.prepare('SELECT count(*) FROM session_listing').pluck().get()).toBe(0);
        expect(listingLines(v5.db)[1]).toMatch(/^upgraded {2}2025-01-01 00:00 {2}claude-code {5}1 {5}1 +kept$/);
        expect(v5.db.prepare('SELECT count(*) FROM session_listing').pluck().get()).toBe(1);
      } finally {
        v5.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
