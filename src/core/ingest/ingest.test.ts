import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import Database from 'better-sqlite3';
import { ingest } from './ingest.js';
import { testLineAdapter } from '../../../test/support/test-adapter.js';
import { search } from '../retrieval/search.js';
import { formatSearch } from '../retrieval/format-search.js';
import { formatIngestSummary } from './format-report.js';
import { cutNote, sourceLine, STRING_KEEP_BYTES } from '../../shared/long-json.js';

let dir: string;
let store: Store;

const line = (s: string, id: string, t: string) => JSON.stringify({ s, id, t }) + '\n';
const count = (sql: string) => (store.db.prepare(sql).get() as { n: number }).n;
const run = (paths: string[] = [], extra: object = {}) =>
  ingest({ store, paths, adapters: [testLineAdapter], env: { TEST_ROOT: join(dir, 'src') }, cwd: dir, ...extra });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-ingest-'));
  store = openStore(join(dir, 'data', 'strata.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function writeSource(name: string, content: string): string {
  const path = join(dir, 'src', name);
  rmSync(path, { force: true });
  writeFileSync(path, content, { flag: 'w' });
  return path;
}

describe('ingest engine', () => {
  beforeEach(() => {
    rmSync(join(dir, 'src'), { recursive: true, force: true });
    mkdirSync(join(dir, 'src'), { recursive: true });
  });

  it("restores SQLite's checkpoint interval after an ingest", async () => {
    writeSource('a.jsonl', line('s1', 'm1', 'hello'));
    await run();
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('skips unchanged files on the second run and reads only appended lines', async () => {
    const path = writeSource('a.jsonl', line('s1', 'm1', 'hello') + line('s1', 'm2', 'world'));
    const first = await run();
    expect(first.filesIngested).toBe(1);
    expect(first.messagesAdded).toBe(2);
    const second = await run();
    expect(second.filesSkipped).toBe(1);
    expect(second.filesIngested).toBe(0);
    expect(second.messagesAdded).toBe(0);
    expect(second.bytesRead).toBe(0);
    appendFileSync(path, line('s1', 'm3', 'again'));
    const third = await run();
    expect(third.messagesAdded).toBe(1);
    expect(third.bytesRead).toBe(Buffer.byteLength(line('s1', 'm3', 'again')));
    expect(count('SELECT COUNT(*) n FROM messages')).toBe(3);
    const lines = store.db.prepare('SELECT line FROM messages ORDER BY seq').all() as { line: number }[];
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3]);
  });

  it('does not ingest an incomplete last line until it is complete', async () => {
    const path = writeSource('a.jsonl', line('s1', 'm1', 'one') + '{"s":"s1","id":"m2","t":"tw');
    const first = await run();
    expect(first.messagesAdded).toBe(1);
    expect(first.malformedLines).toBe(0);
    appendFileSync(path, 'o"}\n');
    const second = await run();
    expect(second.messagesAdded).toBe(1);
    const texts = store.db.prepare('SELECT text FROM blocks ORDER BY id').all() as { text: string }[];
    expect(texts.map((t) => t.text)).toEqual(['one', 'two']);
  });

  it('re-ingests a rewritten file, deleting nothing: changed messages keep a version, gone ones archived', async () => {
    writeSource('a.jsonl', line('s1', 'm1', 'alpha') + line('s1', 'm2', 'beta') + line('s1', 'm3', 'gamma'));
    await run();
    writeSource('a.jsonl', line('s1', 'm1', 'ALPHA') + line('s1', 'm2', 'beta'));
    const second = await run();
    expect(second.filesRewritten).toBe(1);
    expect(second.messagesArchived).toBe(1);
    expect(count('SELECT COUNT(*) n FROM messages')).toBe(3);
    expect(count("SELECT archived n FROM messages WHERE key = 'm3'")).toBe(1);
    expect(count("SELECT COUNT(*) n FROM blocks_fts WHERE blocks_fts MATCH 'gamma'")).toBe(1);
    // m1 now reads ALPHA only; its earlier text is kept as a version, out of the index.
    expect(
      store.db
        .prepare("SELECT b.text FROM blocks b JOIN messages m ON m.id = b.message_id WHERE m.key = 'm1'")
        .pluck()
        .all(),
    ).toEqual(['ALPHA']);
    expect(count("SELECT COUNT(*) n FROM message_versions WHERE blocks LIKE '%alpha%'")).toBe(1);
    expect(count("SELECT COUNT(*) n FROM blocks_fts WHERE blocks_fts MATCH 'ALPHA'")).toBe(1);
    expect(count('SELECT COUNT(*) n FROM blocks')).toBe(3);
    expect(count('SELECT COUNT(*) n FROM sessions')).toBe(1);
  });

  it('keeps sessions whose source file is deleted and marks them archived', async () => {
    const path = writeSource('a.jsonl', line('s1', 'm1', 'keep me'));
    await run();
    rmSync(path);
    const report = await run();
    expect(report.sourcesArchived).toBe(1);
    expect(count('SELECT COUNT(*) n FROM messages')).toBe(1);
    expect(count('SELECT archived n FROM sessions')).toBe(1);
    expect((store.db.prepare('SELECT status FROM sources').get() as { status: string }).status).toBe('missing');
  });

  it('skips, counts and reports malformed lines with file and line, and still ingests the rest', async () => {
    const path = writeSource(
      'a.jsonl',
      line('s1', 'm1', 'ok') + '{not json\n' + line('s1', 'm3', 'fine') + '{"kind":"mystery"}\n',
    );
    const report = await run();
    expect(report.messagesAdded).toBe(2);
    expect(report.malformedLines).toBe(1);
    expect(report.malformed[0]).toMatchObject({ path, line: 2 });
    expect(report.skippedRecords).toEqual({ mystery: 1 });
  });

  it('handles an empty file, a binary file and a 50 MB single line (cut), and ingests the other files', async () => {
    writeSource('empty.jsonl', '');
    writeFileSync(
      join(dir, 'src', 'binary.jsonl'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0xff, 0xfe, 10, 0, 1, 2]),
    );
    writeSource('huge.jsonl', line('s2', 'big', 'x'.repeat(50 * 1024 * 1024)));
    writeSource('ok.jsonl', line('s3', 'm1', 'fine'));
    const report = await run();
    expect(report.filesSeen).toBe(4);
    expect(report.filesFailed).toBe(1);
    expect(report.problems.find((p) => p.path.endsWith('binary.jsonl'))?.reason).toMatch(/binary/);
    expect(count('SELECT COUNT(*) n FROM sessions')).toBe(2);
    // A line past 16 MB keeps 4 MB of its long string, with a note saying where the whole text is.
    const kept = store.db.prepare("SELECT text FROM blocks WHERE text LIKE 'xxx%'").get() as { text: string };
    expect(kept.text).toBe(
      'x'.repeat(STRING_KEEP_BYTES) + cutNote(50 * 1024 * 1024 - STRING_KEEP_BYTES, sourceLine(1)),
    );
  });

  it('names a missing PATH in a usage error', async () => {
    await expect(run([join(dir, 'nope.jsonl')])).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining('nope.jsonl'),
    });
  });

  it('redacts secrets by default so that they appear nowhere in the database file', async () => {
    const secret = 'sk-ant-api03-' + 'Zx9'.repeat(12);
    const gh = 'ghp_' + 'a1B2c3D4e5'.repeat(4);
    writeSource('a.jsonl', line('s1', 'm1', `my key is ${secret} and token ${gh}\nDATABASE_PASSWORD=hunter2Secret99`));
    const report = await run();
    expect(report.redactions).toBe(3);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = readFileSync(store.path);
    expect(bytes.includes(Buffer.from(secret))).toBe(false);
    expect(bytes.includes(Buffer.from(gh))).toBe(false);
    expect(bytes.includes(Buffer.from('hunter2Secret99'))).toBe(false);
    const text = (store.db.prepare('SELECT text FROM blocks').get() as { text: string }).text;
    expect(text).toContain('[REDACTED:anthropic-key]');
  });

  it('keeps secrets with redact: false', async () => {
    writeSource('a.jsonl', line('s1', 'm1', 'key sk-ant-api03-' + 'Q'.repeat(40)));
    const report = await run([], { redact: false });
    expect(report.redactions).toBe(0);
    expect((store.db.prepare('SELECT text FROM blocks').get() as { text: string }).text).toContain('sk-ant-api03-');
  });

  it('indexes, on the next run, what an interrupted ingest stored but had not indexed yet', async () => {
    writeSource('a.jsonl', line('s1', 'm1', 'interrupted before its batch') + line('s1', 'm2', 'second'));
    await run();
    // As if the process died after the file's commit and before the full-text batch was written.
    store.db.exec('DELETE FROM blocks_fts; UPDATE fts_state SET indexed_through = 0');
    const unindexed = search(store.db, { query: 'interrupted' });
    expect(unindexed.sessions).toEqual([]);
    expect(unindexed.unindexed).toBe(2);
    expect(formatSearch(unindexed, 'hits')).toMatch(/2 recently stored blocks are not in the full-text index yet/);
    const report = await run();
    expect(report.filesSkipped).toBe(1);
    expect(report.blocksIndexedLate).toBe(2);
    expect(formatIngestSummary(report, {})).toMatch(/2 blocks left unindexed by an interrupted ingest were indexed/);
    const after = search(store.db, { query: 'interrupted' });
    expect(after.sessions.map((s) => s.hitCount)).toEqual([1]);
    expect(after.unindexed).toBeUndefined();
  });

  it('writes a new file and its source row in one transaction; a failed one leaves only its error row', async () => {
    writeSource('a.jsonl', line('s1', 'm1', 'kept'));
    writeSource('b.jsonl', line('s2', 'm2', 'lost'));
    // A second connection: what it sees of a source while that file is being read was committed before.
    const reader = new Database(join(dir, 'data', 'strata.db'), { readonly: true });
    const committedRows: number[] = [];
    const failing = {
      ...testLineAdapter,
      parseLines: (
        lines: Parameters<typeof testLineAdapter.parseLines>[0],
        ctx: Parameters<typeof testLineAdapter.parseLines>[1],
      ) => {
        committedRows.push(
          reader.prepare('SELECT COUNT(*) FROM sources WHERE path = ?').pluck().get(ctx.path) as number,
        );
        if (ctx.path.endsWith('b.jsonl')) throw new Error('parser broke');
        return testLineAdapter.parseLines(lines, ctx);
      },
    };
    const report = await run([], { adapters: [failing] });
    reader.close();
    expect(committedRows).toEqual([0, 0]);
    expect(report.filesIngested).toBe(1);
    expect(report.filesFailed).toBe(1);
    expect(report.problems).toEqual([{ path: join(dir, 'src', 'b.jsonl'), reason: 'parser broke' }]);
    const rows = store.db.prepare('SELECT path, status, status_reason, size FROM sources ORDER BY path').all();
    expect(rows).toEqual([
      {
        path: join(dir, 'src', 'a.jsonl'),
        status: 'active',
        status_reason: null,
        size: Buffer.byteLength(line('s1', 'm1', 'kept')),
      },
      { path: join(dir, 'src', 'b.jsonl'), status: 'error', status_reason: 'parser broke', size: 0 },
    ]);
    expect(count('SELECT COUNT(*) n FROM messages')).toBe(1);
    // The next run retries it.
    const again = await run();
    expect(again.filesIngested).toBe(1);
    expect(count('SELECT COUNT(*) n FROM messages')).toBe(2);
    expect(store.db.prepare("SELECT status FROM sources WHERE path LIKE '%b.jsonl'").pluck().get()).toBe('active');
    // A file gone by the time it failed gets no row: the next run over its root has nothing to archive.
    const gone = writeSource('c.jsonl', line('s3', 'm3', 'vanishing'));
    const vanishing = {
      ...testLineAdapter,
      parseLines: (
        lines: Parameters<typeof testLineAdapter.parseLines>[0],
        ctx: Parameters<typeof testLineAdapter.parseLines>[1],
      ) => {
        if (ctx.path === gone) {
          rmSync(gone);
          throw new Error('file vanished');
        }
        return testLineAdapter.parseLines(lines, ctx);
      },
    };
    expect((await run([], { adapters: [vanishing] })).filesFailed).toBe(1);
    expect(count("SELECT COUNT(*) n FROM sources WHERE path LIKE '%c.jsonl'")).toBe(0);
  });

  it('indexes CJK text so that a two-character query finds it', async () => {
    writeSource('a.jsonl', line('s1', 'm1', '我们决定使用数据库迁移工具'));
    await run();
    expect(count(`SELECT COUNT(*) n FROM blocks_fts WHERE blocks_fts MATCH '"数 据"'`)).toBe(1);
  });
});
