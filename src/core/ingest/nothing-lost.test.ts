// A re-ingest never deletes a stored message and never doubles one (issue 20, items 1-3), on a real
// Claude Code transcript: shortened, cut mid-line, replaced, copied under two paths, saved in two versions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from './ingest.js';
import { readSession } from '../retrieval/read-session.js';
import { OpenCodeTestDb, assistantInfo, userInfo } from '../../../test/support/opencode-test-db.js';

const F = resolve(
  import.meta.dirname,
  '../../../../shared/fixtures/real/claude-code/omarchy-backup/projects/-home-vwestberg-Claude',
  '1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl',
);
const SID = '1fb5e404-604d-4a2b-baf1-3beb42a67371';

let dir: string;
let store: Store;
const run = (paths: string[]) =>
  ingest({ store, paths, env: { HOME: dir }, pipeline: 'inline', cwd: dir, agents: ['claude-code'] });
const n = (sql: string, ...args: unknown[]) =>
  store.db
    .prepare(sql)
    .pluck()
    .get(...args) as number;
const lines = () =>
  readFileSync(F, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-lost-'));
  store = openStore(join(dir, 'data', 'strata.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function place(name: string, content?: string): string {
  const path = join(dir, 'projects', name);
  mkdirSync(join(path, '..'), { recursive: true });
  if (content === undefined) copyFileSync(F, path);
  else writeFileSync(path, content);
  return path;
}

describe('a shorter, cut or replaced source never deletes stored messages', () => {
  it('keeps all messages when the file is cut to 350 lines, and archives those it lost', async () => {
    const path = place(`p/${SID}.jsonl`);
    await run([path]);
    const stored = n('SELECT COUNT(*) FROM messages');
    const blocks = n('SELECT COUNT(*) FROM blocks');
    expect(stored).toBe(463);
    writeFileSync(path, lines().slice(0, 350).join('\n') + '\n');
    const report = await run([path]);
    expect(report.filesRewritten).toBe(1);
    expect(n('SELECT COUNT(*) FROM messages')).toBe(stored);
    expect(n('SELECT COUNT(*) FROM blocks')).toBe(blocks);
    expect(n('SELECT COUNT(*) FROM messages WHERE archived = 1')).toBeGreaterThan(0);
    expect(report.messagesArchived).toBe(n('SELECT COUNT(*) FROM messages WHERE archived = 1'));
    expect(n('SELECT archived FROM sessions WHERE external_id = ?', SID)).toBe(0);
    // Still readable, each vanished message marked.
    const read = readSession(store.db, SID, { range: '1-' });
    expect(read.messages).toHaveLength(stored);
    expect(read.messages.filter((m) => m.removed).length).toBe(report.messagesArchived);
  });

  it('keeps all messages when the file is cut in the middle of a line', async () => {
    const path = place(`p/${SID}.jsonl`);
    await run([path]);
    const text = readFileSync(F, 'utf8');
    writeFileSync(path, text.slice(0, Math.floor(text.length / 2)));
    await run([path]);
    expect(n('SELECT COUNT(*) FROM messages')).toBe(463);
    // The file grows back whole: everything is current again, nothing doubled.
    copyFileSync(F, path);
    await run([path]);
    expect(n('SELECT COUNT(*) FROM messages')).toBe(463);
    expect(n('SELECT COUNT(*) FROM messages WHERE archived = 1')).toBe(0);
  });

  it('archives the session a replaced file no longer holds, keeping its messages', async () => {
    const path = place(`p/${SID}.jsonl`);
    await run([path]);
    const other = JSON.stringify({
      type: 'user',
      sessionId: 'other-session',
      uuid: 'u-1',
      timestamp: '2026-01-01T00:00:00Z',
      message: { role: 'user', content: 'a different session' },
    });
    writeFileSync(path, other + '\n');
    await run([path]);
    expect(
      n('SELECT COUNT(*) FROM messages WHERE session_id = (SELECT id FROM sessions WHERE external_id = ?)', SID),
    ).toBe(463);
    expect(n('SELECT archived FROM sessions WHERE external_id = ?', SID)).toBe(1);
    expect(
      n("SELECT COUNT(*) FROM messages m JOIN sessions s ON s.id = m.session_id WHERE s.external_id = 'other-session'"),
    ).toBe(1);
  });
});

describe('the same transcript reached twice is stored once', () => {
  it('does not double blocks for copies in two folders and a renamed copy', async () => {
    place(`a/${SID}.jsonl`);
    const first = await run([join(dir, 'projects', 'a')]);
    const blocks = n('SELECT COUNT(*) FROM blocks');
    place(`b/${SID}.jsonl`);
    place(`c/renamed.jsonl`);
    await run([join(dir, 'projects', 'b'), join(dir, 'projects', 'c')]);
    expect(first.messagesAdded).toBe(463);
    expect(n('SELECT COUNT(*) FROM messages')).toBe(463);
    expect(n('SELECT COUNT(*) FROM blocks')).toBe(blocks);
    expect(n("SELECT COUNT(*) FROM blocks_fts WHERE blocks_fts MATCH 'omarchy'")).toBe(
      n("SELECT COUNT(*) FROM blocks WHERE text LIKE '%omarchy%'"),
    );
  });
});

describe('one session saved in two files, in two versions', () => {
  const S = '2b0c8a4e-1111-4222-8333-944455556666';
  const user = (uuid: string, t: string, text: string) =>
    JSON.stringify({
      type: 'user',
      sessionId: S,
      uuid,
      timestamp: `2026-03-01T10:${t}:00Z`,
      message: { role: 'user', content: text },
    });
  const title = (text: string) => JSON.stringify({ type: 'ai-title', sessionId: S, aiTitle: text });
  // The old backup holds m1, m2 and b3 (a message the live file replaced by m3); the live file goes on to m4.
  const backup =
    [user('m1', '00', 'first'), user('m2', '01', 'second'), user('b3', '02', 'backup only'), title('Old title')].join(
      '\n',
    ) + '\n';
  const live =
    [
      user('m1', '00', 'first'),
      user('m2', '01', 'second'),
      user('m3', '03', 'third'),
      user('m4', '04', 'fourth'),
      title('New title'),
    ].join('\n') + '\n';

  for (const order of [
    ['live', 'backup'],
    ['backup', 'live'],
  ] as const) {
    it(`orders messages by time, keeps both versions' own, takes the newer title (${order.join(', ')})`, async () => {
      const files = { live: place(`live/${S}.jsonl`, live), backup: place(`backup/${S}.jsonl`, backup) };
      for (const which of order) await run([files[which]]);
      const texts = store.db
        .prepare('SELECT b.text FROM messages m JOIN blocks b ON b.message_id = m.id ORDER BY m.seq, b.idx')
        .pluck()
        .all();
      expect(texts).toEqual(['first', 'second', 'backup only', 'third', 'fourth']);
      expect(store.db.prepare('SELECT title FROM sessions').pluck().get()).toBe('New title');
      expect(readSession(store.db, S).messages.map((m) => m.n)).toEqual([1, 2, 3, 4, 5]);
    });
  }
});

describe('a session deleted from opencode.db', () => {
  it('keeps its messages, archived, and archives the session; an edited message keeps its old text', async () => {
    const path = join(dir, 'opencode', 'opencode.db');
    mkdirSync(join(dir, 'opencode'));
    const T0 = 1_750_000_000_000;
    const db = new OpenCodeTestDb(path);
    db.project('prj_1', '/work/app');
    for (const [i, id] of ['ses_a', 'ses_b'].entries()) {
      db.session({ id, projectId: 'prj_1', directory: '/work/app', title: id, time: T0 + i });
      db.message(id, `${id}_1`, userInfo(T0 + i * 10), T0 + i * 10);
      db.part(id, `${id}_1`, `prt_${id}_1`, { type: 'text', text: `question of ${id}` }, T0 + i * 10);
      db.message(id, `${id}_2`, assistantInfo(T0 + i * 10 + 1, `${id}_1`, '/work/app'), T0 + i * 10 + 1);
      db.part(id, `${id}_2`, `prt_${id}_2`, { type: 'text', text: `answer of ${id}` }, T0 + i * 10 + 1);
    }
    await ingest({ store, paths: [path], env: { HOME: dir }, cwd: dir, agents: ['opencode'] });
    expect(n('SELECT COUNT(*) FROM messages')).toBe(4);
    db.db.prepare("DELETE FROM part WHERE session_id = 'ses_b'").run();
    db.db.prepare("DELETE FROM message WHERE session_id = 'ses_b'").run();
    db.db.prepare("DELETE FROM session WHERE id = 'ses_b'").run();
    db.db
      .prepare(
        "UPDATE part SET data = json_set(data, '$.text', 'edited answer'), time_updated = ? WHERE id = 'prt_ses_a_2'",
      )
      .run(T0 + 99_999);
    db.close();
    const report = await ingest({ store, paths: [path], env: { HOME: dir }, cwd: dir, agents: ['opencode'] });
    expect(n('SELECT COUNT(*) FROM messages')).toBe(4);
    expect(report.messagesArchived).toBe(2);
    expect(store.db.prepare('SELECT external_id, archived FROM sessions ORDER BY external_id').raw().all()).toEqual([
      ['ses_a', 0],
      ['ses_b', 1],
    ]);
    expect(store.db.prepare('SELECT blocks FROM message_versions').pluck().get()).toContain('answer of ses_a');
    expect(n("SELECT COUNT(*) FROM blocks WHERE text = 'edited answer'")).toBe(1);
  });
});
