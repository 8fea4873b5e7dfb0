// The Activity page's per-day counts come from `session_days`, and its tokens per model from
// `session_model_tokens`, written at ingest: after a whole ingest of the real fixtures, after a transcript is
// appended to (across midnight), and after the migrations fill them, they equal the counts taken from every
// stored message, block and usage row.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from '../ingest/ingest.js';
import { activity } from './activity.js';
import { FIXTURES, tempDir } from '../../../test/support/paths.js';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = tempDir('strata-activity-');
  store = openStore(join(dir, 'home', 'strata.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Messages and tool calls per session and day, counted from every stored row. */
function counted(db: Database): string[] {
  return (
    db
      .prepare(`SELECT m.session_id || ' ' || COALESCE(substr(m.timestamp, 1, 10), '') || ' ' || COUNT(*) || ' ' ||
        (SELECT COUNT(*) FROM messages m2 JOIN blocks b ON b.message_id = m2.id WHERE m2.session_id = m.session_id
          AND COALESCE(substr(m2.timestamp, 1, 10), '') = COALESCE(substr(m.timestamp, 1, 10), '')
          AND b.kind = 'tool_call')
      FROM messages m GROUP BY m.session_id, COALESCE(substr(m.timestamp, 1, 10), '') ORDER BY 1`)
      .pluck()
      .all() as string[]
  ).sort();
}

function stored(db: Database): string[] {
  return (
    db
      .prepare(`SELECT session_id || ' ' || day || ' ' || messages || ' ' || tool_calls FROM session_days
        WHERE messages > 0 OR tool_calls > 0`)
      .pluck()
      .all() as string[]
  ).sort();
}

const MODEL_SUMS = `SELECT session_id, COALESCE(model, ''), SUM(input_tokens), SUM(output_tokens),
  SUM(cache_read_tokens), SUM(cache_write_tokens) FROM usage GROUP BY 1, 2 ORDER BY 1, 2`;
const summed = (db: Database) => db.prepare(MODEL_SUMS).raw(true).all();
const kept = (db: Database) => db.prepare('SELECT * FROM session_model_tokens ORDER BY 1, 2').raw(true).all();

const record = (n: number, day: number, type: 'user' | 'assistant', content: unknown[]) =>
  JSON.stringify({
    type,
    sessionId: 'ac7ac7ac-0000-4000-8000-000000000001',
    uuid: `r-${n}`,
    timestamp: new Date(Date.UTC(2026, 0, day, 23, 50, n)).toISOString(),
    cwd: '/repo',
    message:
      type === 'user'
        ? { role: 'user', content }
        : {
            id: `msg_${n}`,
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content,
            usage: { input_tokens: n, output_tokens: 2 },
          },
  }) + '\n';
const call = (id: string) => [{ type: 'tool_use', id, name: 'Bash', input: { command: `echo ${id}` } }];
const result = (id: string) => [{ type: 'tool_result', tool_use_id: id, content: 'ok' }];

describe('activity per day', () => {
  it('equals the counts of every stored message and block after ingesting the real fixtures', async () => {
    await ingest({ store, paths: [FIXTURES], env: {}, cwd: dir });
    expect(stored(store.db).length).toBeGreaterThan(20);
    expect(stored(store.db)).toEqual(counted(store.db));
    const a = activity(store.db);
    expect(a.totals.messages).toBe(store.db.prepare('SELECT COUNT(*) FROM messages').pluck().get());
    const calls = store.db.prepare("SELECT COUNT(*) FROM blocks WHERE kind = 'tool_call'").pluck().get();
    expect(a.totals.toolCalls).toBe(calls);
    expect(kept(store.db).length).toBeGreaterThan(5);
    expect(kept(store.db)).toEqual(summed(store.db));
  });

  it('adds what a transcript appended, on the day of each message', async () => {
    const folder = join(dir, 'claude', 'projects', '-repo');
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'ac7ac7ac-0000-4000-8000-000000000001.jsonl');
    writeFileSync(
      file,
      record(1, 1, 'user', [{ type: 'text', text: 'run it' }]) + record(2, 1, 'assistant', call('c1')),
    );
    await ingest({ store, paths: [join(dir, 'claude')], env: {}, cwd: dir });
    appendFileSync(file, record(3, 1, 'user', result('c1')) + record(4, 2, 'assistant', call('c2')));
    appendFileSync(file, record(5, 2, 'user', result('c2')) + record(6, 2, 'assistant', call('c3')));
    await ingest({ store, paths: [join(dir, 'claude')], env: {}, cwd: dir });
    expect(stored(store.db)).toEqual(counted(store.db));
    expect(kept(store.db)).toEqual(summed(store.db));
    expect(kept(store.db)).toEqual([[1, 'claude-sonnet-4-5', 2 + 4 + 6, 6, 0, 0]]);
    expect(activity(store.db).byDay.map((d) => [d.key, d.messages, d.toolCalls])).toEqual([
      ['2026-01-01', 3, 1],
      ['2026-01-02', 3, 2],
    ]);
  });

  it('is filled by the migration for a store written before it', async () => {
    await ingest({ store, paths: [FIXTURES], env: {}, cwd: dir });
    const before = counted(store.db);
    const tokens = summed(store.db);
    store.db.exec('DROP TABLE session_days; DROP TABLE session_model_tokens');
    store.db.pragma('user_version = 14');
    store.close();
    store = openStore(join(dir, 'home', 'strata.db'));
    expect(stored(store.db)).toEqual(before);
    expect(kept(store.db)).toEqual(tokens);
  });
});
