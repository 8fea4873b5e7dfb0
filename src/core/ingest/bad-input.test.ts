// Bad input costs one value or one line, never a file's first line or a whole file (issue 20, items
// 17 and 18): a byte order mark, files deleted under a named folder, values of the wrong type or range,
// and the listing of files that are not sessions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import { ingest } from './ingest.js';
import { testLineAdapter } from '../../../test/support/test-adapter.js';
import { emptyReport } from './report.js';
import { formatIngestSummary } from './format-report.js';

let dir: string;
let store: Store;
const line = (s: string, id: string, t: string) => JSON.stringify({ s, id, t }) + '\n';
const n = (sql: string) => store.db.prepare(sql).pluck().get() as number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-bad-'));
  mkdirSync(join(dir, 'src'));
  store = openStore(join(dir, 'data', 'strata.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('bad input', () => {
  it('reads the first line of a file that starts with a UTF-8 byte order mark', async () => {
    const path = join(dir, 'src', 'bom.jsonl');
    writeFileSync(path, '\ufeff' + line('s1', 'm1', 'first') + line('s1', 'm2', 'second'));
    const report = await ingest({ store, paths: [path], adapters: [testLineAdapter], cwd: dir, env: {} });
    expect(report.malformedLines).toBe(0);
    expect(store.db.prepare('SELECT text FROM blocks ORDER BY id').pluck().all()).toEqual(['first', 'second']);
  });

  it('archives the sessions of a file deleted under a folder named as PATH', async () => {
    const folder = join(dir, 'src');
    writeFileSync(join(folder, 'a.jsonl'), line('s1', 'm1', 'kept'));
    writeFileSync(join(folder, 'b.jsonl'), line('s2', 'm1', 'stays'));
    await ingest({ store, paths: [folder], adapters: [testLineAdapter], cwd: dir, env: {} });
    rmSync(join(folder, 'a.jsonl'));
    const report = await ingest({ store, paths: [folder], adapters: [testLineAdapter], cwd: dir, env: {} });
    expect(report.sourcesArchived).toBe(1);
    expect(store.db.prepare('SELECT external_id, archived FROM sessions ORDER BY external_id').raw().all()).toEqual([
      ['s1', 1],
      ['s2', 0],
    ]);
    expect(n('SELECT COUNT(*) FROM messages')).toBe(2);
  });

  it('drops a time out of range and an impossible token count, keeps the record and counts them', async () => {
    const path = join(dir, 'src', '6c1d3a2e-1111-4222-8333-944455556666.jsonl');
    const record = (uuid: string, timestamp: unknown, usage?: object) =>
      JSON.stringify({
        type: 'assistant',
        sessionId: 'sess',
        uuid,
        timestamp,
        message: {
          id: `msg_${uuid}`,
          role: 'assistant',
          model: 'm',
          content: [{ type: 'text', text: `reply ${uuid}` }],
          ...(usage ? { usage } : {}),
        },
      });
    writeFileSync(
      path,
      [
        record('a', '1969-12-31T23:59:59.000Z', { input_tokens: 1e308, output_tokens: 7 }),
        record('b', '2026-01-02T03:04:05.000Z', { input_tokens: -5, output_tokens: 2.5 }),
      ].join('\n') + '\n',
    );
    const report = await ingest({
      store,
      paths: [path],
      cwd: dir,
      env: {},
      pipeline: 'inline',
      agents: ['claude-code'],
    });
    expect(n('SELECT COUNT(*) FROM messages')).toBe(2);
    expect(store.db.prepare('SELECT started_at, input_tokens, output_tokens FROM sessions').raw().get()).toEqual([
      '2026-01-02T03:04:05.000Z',
      0,
      7,
    ]);
    expect(report.invalidValues).toEqual({ timestamp: 1, inputTokens: 2, outputTokens: 1 });
    expect(formatIngestSummary(report, {})).toMatch(
      /invalid values dropped \(records kept\): timestamp 1, inputTokens 2, outputTokens 1/,
    );
  });
});

describe('the summary of a plain ingest', () => {
  it('lists the files that are not sessions, grouped by reason and capped', () => {
    const report = emptyReport();
    for (let i = 0; i < 7; i++)
      report.notSession.push({
        path: `/x/notes-${i}.txt`,
        reason: 'not recognised as an agent history by any adapter',
      });
    report.notSession.push({
      path: '/x/history.jsonl',
      reason: 'Claude Code prompt log (history.jsonl), not a session transcript',
    });
    report.filesNotSession = report.notSession.length;
    const text = formatIngestSummary(report, {});
    expect(text).toContain(
      '  not a session (7): not recognised as an agent history by any adapter\n    /x/notes-0.txt',
    );
    expect(text).toContain('    … 2 more');
    expect(text).not.toContain('/x/notes-5.txt');
    expect(text).toContain(
      '  not a session (1): Claude Code prompt log (history.jsonl), not a session transcript\n    /x/history.jsonl',
    );
  });
});
