import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './db.js';
import { FTS_BATCH_CHARS, SessionWriter } from './session-writer.js';
import { MAX_SEGMENTS } from './fts-batcher.js';
import type { PreparedBlock } from './prepared-message.js';
import {
  countHits,
  indexedThroughOf,
  maxBlockIdOf,
  message,
  result,
  text,
  writeMessages,
  closeWriterStore,
  openWriterStore,
} from './test-db.js';
import type { ParsedMessage } from '../shared/model.js';

let dir: string;
let store: Store;
let sourceId: number;

const hits = (query: string) => countHits(store.db, query);
const indexedThrough = () => indexedThroughOf(store.db);
const maxBlockId = () => maxBlockIdOf(store.db);
const write = (writer: SessionWriter, ...messages: ParsedMessage[]) => writeMessages(writer, sourceId, ...messages);

beforeEach(() => {
  ({ dir, store, sourceId } = openWriterStore());
});
afterEach(() => closeWriterStore(dir, store));

describe('full-text rows written in batches', () => {
  it("keeps a committed file's rows until the batch is flushed, then fts_state covers every block", () => {
    const writer = new SessionWriter(store.db);
    write(writer, message('m1', [text('alpha bravo')]));
    expect(hits('alpha')).toBe(0);
    expect(writer.fts.pendingChars).toBe('alpha bravo'.length);
    writer.fts.maybeFlush(); // far below a batch: nothing written yet
    expect(hits('alpha')).toBe(0);
    writer.fts.flush();
    expect(hits('alpha')).toBe(1);
    expect(writer.fts.pendingChars).toBe(0);
    expect(indexedThrough()).toBe(maxBlockId());
  });

  it('drops the rows of a rolled-back file, whose block ids the next file reuses', () => {
    const writer = new SessionWriter(store.db);
    write(writer, message('m1', [text('kept')]));
    expect(() =>
      writer.withFileTransaction(() => {
        const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
        writer.writeMessage(sessionId, sourceId, message('m2', [text('gamma rolled back')]), 'merge', result());
        throw new Error('parse failed half way');
      }),
    ).toThrow(/half way/);
    expect(writer.fts.pendingChars).toBe('kept'.length);
    write(writer, message('m3', [text('delta')]));
    writer.fts.flush();
    expect(hits('gamma')).toBe(0);
    expect(hits('delta')).toBe(1);
    expect(hits('kept')).toBe(1);
    // The rolled-back message's sequence number is free again: numbering has no gap.
    expect(store.db.prepare('SELECT seq FROM messages ORDER BY seq').pluck().all()).toEqual([1, 2]);
  });

  it('a block deleted before the flush never reaches the index; a rollback brings its row back', () => {
    const writer = new SessionWriter(store.db);
    write(writer, message('m1', [text('zeta')]));
    expect(() =>
      writer.withFileTransaction(() => {
        writer.deleteMessagesOfSource(sourceId, new Set());
        throw new Error('rewrite failed');
      }),
    ).toThrow();
    expect(writer.fts.pendingChars).toBe('zeta'.length);
    writer.withFileTransaction(() => writer.deleteMessagesOfSource(sourceId, new Set()));
    expect(writer.fts.pendingChars).toBe(0);
    writer.fts.flush();
    expect(hits('zeta')).toBe(0);
    // FTS5's own check (it throws on a corrupt index).
    store.db.exec("INSERT INTO blocks_fts (blocks_fts, rank) VALUES ('integrity-check', 0)");
  });

  it('a row added and replaced within a rolled-back file does not come back as a ghost', () => {
    const writer = new SessionWriter(store.db);
    expect(() =>
      writer.withFileTransaction(() => {
        const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
        writer.writeMessage(sessionId, sourceId, message('m1', [text('oldphantom')]), 'replace', result());
        writer.writeMessage(sessionId, sourceId, message('m1', [text('newer')]), 'replace', result());
        throw new Error('failed after the rewrite');
      }),
    ).toThrow();
    expect(writer.fts.pendingChars).toBe(0);
    write(writer, message('m2', [text('reuses the id')]));
    writer.fts.flush();
    expect(hits('oldphantom')).toBe(0);
    expect(hits('newer')).toBe(0);
    expect(hits('reuses')).toBe(1);
  });

  it('a large file writes its rows inside its own transaction, after the pending batch', () => {
    const writer = new SessionWriter(store.db);
    write(writer, message('m1', [text('small pending')]));
    writer.withFileTransaction(
      () => {
        const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
        writer.writeMessage(sessionId, sourceId, message('m2', [text('large inline')]), 'merge', result());
        expect(hits('inline')).toBe(1); // already in the index, before the commit
        expect(hits('small')).toBe(1); // the batch was written first
      },
      { inline: true },
    );
    expect(writer.fts.pendingChars).toBe(0);
    expect(indexedThrough()).toBe(maxBlockId());
    const through = indexedThrough();
    expect(() =>
      writer.withFileTransaction(
        () => {
          const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
          writer.writeMessage(sessionId, sourceId, message('m3', [text('rolled inline')]), 'merge', result());
          throw new Error('failed');
        },
        { inline: true },
      ),
    ).toThrow();
    expect(hits('rolled')).toBe(0);
    expect(indexedThrough()).toBe(through);
    write(writer, message('m4', [text('deferred again')]));
    expect(hits('deferred')).toBe(0);
    writer.fts.flush();
    expect(hits('deferred')).toBe(1);
  });

  it('indexes at once a block whose id was reused below indexed_through (the newest blocks were deleted)', () => {
    const writer = new SessionWriter(store.db);
    write(writer, message('m1', [text('first')]), message('m2', [text('second')]));
    writer.fts.flush();
    const through = indexedThrough();
    writer.withFileTransaction(() => {
      writer.deleteMessagesOfSource(sourceId, new Set(['1\u0000m1']));
      const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
      writer.writeMessage(sessionId, sourceId, message('m3', [text('third')]), 'merge', result());
    });
    expect(maxBlockId()).toBeLessThanOrEqual(through);
    expect(hits('second')).toBe(0);
    expect(hits('third')).toBe(1);
    expect(writer.fts.pendingChars).toBe(0);
  });

  it('a later writer indexes what an interrupted one stored but never flushed', () => {
    const first = new SessionWriter(store.db);
    write(first, message('m1', [text('epsilon'), text('')]), message('m2', [text('camelCaseWord')]));
    // The process dies here: no flush.
    const next = new SessionWriter(store.db);
    expect(next.fts.catchUp()).toBe(2);
    expect(hits('epsilon')).toBe(1);
    expect(hits('Word')).toBe(1); // indexed as ingest indexes it (camelCase sub-words)
    expect(indexedThrough()).toBe(maxBlockId());
    expect(new SessionWriter(store.db).fts.catchUp()).toBe(0);
  });
});

describe('packed texts pending in a batch', () => {
  it('writes the batch once the buffers its pending views keep alive are large, however little they hold', () => {
    const writer = new SessionWriter(store.db);
    // A small indexed text in a large batch buffer (say, next to a long tool output clipped for the index).
    const buffer = new ArrayBuffer(2 * FTS_BATCH_CHARS + 1);
    const view = new Uint8Array(buffer, 0, Buffer.from(buffer).write('alpha bravo'));
    const block: PreparedBlock = {
      kind: 'text',
      field: 'user',
      text: view,
      ftsBytes: view,
      ftsBody: null,
      ftsTail: '',
      toolName: null,
      toolCallId: null,
      toolInput: null,
      isError: 0,
      noise: null,
      meta: null,
    };
    writer.withFileTransaction(() => {
      const sessionId = writer.upsertSession('claude-code', { key: 's' }, sourceId);
      writer.writePrepared(
        sessionId,
        sourceId,
        {
          sessionKey: 's',
          key: 'm1',
          role: 'user',
          kind: 'prompt',
          timestamp: null,
          model: null,
          line: 1,
          sidechain: 0,
          hash: null,
          meta: null,
          blocks: [block],
        },
        'merge',
        result(),
      );
    });
    expect(writer.fts.pendingChars).toBe(11);
    writer.fts.maybeFlush();
    expect(hits('alpha')).toBe(1);
    expect(store.db.prepare('SELECT text FROM blocks').pluck().get()).toBe('alpha bravo');
  });
});

describe('full-text merging during a bulk ingest', () => {
  it('stops incremental merging, raises the hash size for the bulk and restores both; crisis merges: 64', () => {
    const option = (key: string) => store.db.prepare('SELECT v FROM blocks_fts_config WHERE k = ?').pluck().get(key);
    const writer = new SessionWriter(store.db);
    expect(option('automerge')).toBe(8);
    expect(option('hashsize')).toBeUndefined();
    expect(option('crisismerge')).toBeUndefined();
    writer.fts.setBulkMerging(true);
    expect(option('automerge')).toBe(0);
    expect(option('hashsize')).toBe(4 * 1024 * 1024);
    expect(option('crisismerge')).toBe(64);
    write(writer, message('m1', [text('merged later')]));
    writer.fts.flush();
    writer.fts.setBulkMerging(false);
    expect(option('automerge')).toBe(8);
    expect(option('hashsize')).toBe(1024 * 1024);
    expect(option('crisismerge')).toBe(64);
    expect(hits('merged')).toBe(1);
  });

  it('leaves one segment per full-text batch during the bulk: no merge before 64', () => {
    const segments = () => store.db.prepare('SELECT COUNT(DISTINCT segid) FROM blocks_fts_idx').pluck().get() as number;
    const writer = new SessionWriter(store.db);
    writer.fts.setBulkMerging(true);
    for (let i = 0; i < 20; i++) {
      write(writer, message(`m${i}`, [text(`batch${i} words`)]));
      writer.fts.flush();
    }
    expect(segments()).toBe(20);
    for (let i = 0; i < 20; i++) expect(hits(`batch${i}`), `batch${i}`).toBe(1);
    writer.fts.setBulkMerging(false);
  });

  it('merges the segments a bulk left into one when there are more than MAX_SEGMENTS; fewer are left', () => {
    const segments = () => store.db.prepare('SELECT COUNT(DISTINCT segid) FROM blocks_fts_idx').pluck().get() as number;
    const writer = new SessionWriter(store.db);
    writer.fts.setBulkMerging(true);
    const batch = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        write(writer, message(`m${i}`, [text(`batch${i} words`)]));
        writer.fts.flush();
      }
    };
    batch(0, MAX_SEGMENTS);
    expect(writer.fts.compact()).toBe(false);
    expect(segments()).toBe(MAX_SEGMENTS);
    batch(MAX_SEGMENTS, MAX_SEGMENTS + 4);
    expect(writer.fts.compact()).toBe(true);
    expect(segments()).toBe(1);
    for (let i = 0; i < MAX_SEGMENTS + 4; i++) expect(hits(`batch${i}`), `batch${i}`).toBe(1);
    expect(hits('words')).toBe(MAX_SEGMENTS + 4);
    writer.fts.setBulkMerging(false);
  });

  it('stores automerge 8 again when the row is gone (FTS5 would use its default, 4)', () => {
    const option = (key: string) => store.db.prepare('SELECT v FROM blocks_fts_config WHERE k = ?').pluck().get(key);
    store.db.unsafeMode(true); // FTS5's shadow tables are read-only in better-sqlite3's defensive mode
    store.db.prepare("DELETE FROM blocks_fts_config WHERE k = 'automerge'").run();
    store.db.unsafeMode(false);
    expect(option('automerge')).toBeUndefined();
    new SessionWriter(store.db).fts.setBulkMerging(false);
    expect(option('automerge')).toBe(8);
  });
});
