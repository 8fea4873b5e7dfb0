// A store written before a rule existed (here: with redaction off) is scanned again with the current
// rules: the secret leaves every stored text and the full-text index, only the secret is replaced,
// a dry run writes nothing, a cut scan resumes, and a second scan finds nothing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../store/db.js';
import { REDACTION_RULES_VERSION } from '../../shared/redact/index.js';
import { ingest } from '../ingest/ingest.js';
import { needsRescan, pendingBlocks, rescanSlice, rescanStore } from './rescan-store.js';

// Built at run time, so this file itself holds no secret.
const SECRET = ['ghp', '1234567890abcdefghijklmnopqrstuvwxyzAB'].join('_');
const SID = '11111111-2222-3333-4444-555555555555';

let dir: string;
let store: Store;
const n = (sql: string, ...args: unknown[]): number =>
  store.db
    .prepare(sql)
    .pluck()
    .get(...args) as number;
const leaks = (): string[] => {
  const found: string[] = [];
  const tables = store.db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'blocks_fts%'",
  );
  for (const table of tables.pluck().all() as string[]) {
    for (const { name } of store.db.pragma(`table_info(${table})`) as { name: string }[]) {
      if (n(`SELECT COUNT(*) FROM ${table} WHERE CAST(${name} AS TEXT) LIKE ?`, `%${SECRET}%`) > 0)
        found.push(`${table}.${name}`);
    }
  }
  return found;
};
const indexed = (word: string): number => n('SELECT COUNT(*) FROM blocks_fts WHERE blocks_fts MATCH ?', word);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-rescan-'));
  const project = join(dir, 'projects', '-tmp-proj');
  mkdirSync(project, { recursive: true });
  const line = (uuid: string, role: string, content: unknown) =>
    JSON.stringify({
      type: role,
      uuid,
      sessionId: SID,
      timestamp: '2026-01-01T00:00:00Z',
      cwd: '/tmp/proj',
      message: { role, content },
    });
  writeFileSync(
    join(project, `${SID}.jsonl`),
    [
      line('u1', 'user', `please deploy with token ${SECRET} now`),
      line('a1', 'assistant', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: `gh auth ${SECRET}` } }]),
      line('u2', 'user', [{ type: 'tool_result', tool_use_id: 't1', content: `logged in with ${SECRET}` }]),
    ].join('\n') + '\n',
  );
  store = openStore(join(dir, 'strata.db'));
  await ingest({ store, paths: [project], redact: false, env: { HOME: dir }, cwd: dir, pipeline: 'inline' });
  // As if the texts had been stored by an older strata whose rules missed this secret.
  store.db.prepare("UPDATE redaction_state SET rules = 'rules-1'").run();
  store.db
    .prepare("INSERT INTO logbooks VALUES ('/tmp/proj', 'project', ?, 1, 'x', 'x')")
    .run(JSON.stringify({ events: [{ text: `used ${SECRET}` }] }));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('rescanStore', () => {
  it('redacts a secret the store kept from every text and from the full-text index', () => {
    expect(leaks()).toEqual(expect.arrayContaining(['blocks.text', 'session_stats.first_prompt', 'logbooks.data']));
    expect(indexed('1234567890abcdefghijklmnopqrstuvwxyzAB')).toBe(3);
    expect(needsRescan(store)).toBe(true);
    expect(pendingBlocks(store)).toBe(3);
    const report = rescanStore(store);
    expect(report.secrets).toBeGreaterThanOrEqual(5);
    expect(report.byKind['github-token']).toBe(report.secrets);
    expect(leaks()).toEqual([]);
    expect(indexed('1234567890abcdefghijklmnopqrstuvwxyzAB')).toBe(0);
    // Only the secret is replaced: the rest of the text is kept, and indexed.
    expect(
      n('SELECT COUNT(*) FROM blocks WHERE text = ?', 'please deploy with token [REDACTED:github-token] now'),
    ).toBe(1);
    expect(indexed('deploy')).toBe(1);
    expect(JSON.parse(store.db.prepare('SELECT data FROM logbooks').pluck().get() as string)).toEqual({
      events: [{ text: 'used [REDACTED:github-token]' }],
    });
    expect(needsRescan(store)).toBe(false);
    expect(rescanStore(store).secrets).toBe(0);
  });

  it('marks a new store as redacted with the current rules', () => {
    const fresh = openStore(join(dir, 'fresh.db'));
    expect(needsRescan(fresh)).toBe(false);
    fresh.close();
  });

  it('writes nothing on a dry run', () => {
    const report = rescanStore(store, { dryRun: true });
    expect(report.secrets).toBeGreaterThanOrEqual(5);
    expect(leaks()).toEqual(expect.arrayContaining(['blocks.text', 'session_stats.first_prompt', 'logbooks.data']));
    expect(needsRescan(store)).toBe(true);
  });

  it('resumes a scan that was cut short, reading only what it had not', () => {
    const last = n('SELECT MAX(id) FROM blocks');
    const first = n('SELECT MIN(id) FROM blocks');
    store.db
      .prepare('UPDATE redaction_state SET rules = ?, scan_next = ?, scan_end = ?')
      .run(REDACTION_RULES_VERSION, first, last);
    expect(needsRescan(store)).toBe(true);
    expect(pendingBlocks(store)).toBe(2);
    expect(rescanStore(store).blocksScanned).toBe(2);
    expect(needsRescan(store)).toBe(false);
  });

  it('goes in bounded slices for writers: one batch each, resumed by the next, the other texts with the last', () => {
    expect(rescanSlice(store, 1, 1)).toEqual({ blocksScanned: 1, complete: false, secrets: 1 });
    expect(pendingBlocks(store)).toBe(2);
    expect(leaks()).toContain('logbooks.data');
    expect(rescanSlice(store, 1, 1).complete).toBe(false);
    const last = rescanSlice(store, 1, 1);
    expect(last.complete).toBe(true);
    expect(leaks()).toEqual([]);
    expect(needsRescan(store)).toBe(false);
    expect(rescanSlice(store, 1, 1)).toEqual({ blocksScanned: 0, complete: true, secrets: 0 });
  });

  it('is moved on by every ingest, whatever it ingests', async () => {
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, '');
    await ingest({ store, paths: [other], env: { HOME: dir }, cwd: dir, pipeline: 'inline' });
    expect(leaks()).toEqual([]);
    expect(needsRescan(store)).toBe(false);
  });
});
