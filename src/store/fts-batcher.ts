// Owns the full-text rows of blocks (blocks_fts). They are deferred and written in batches of several
// files: one FTS5 segment per file made merging the index the largest cost of a bulk ingest. fts_state
// records how far the index reaches, so an interrupted ingest's unindexed tail is indexed by the next one.
// A row written or removed is written or removed in one place each (writeRow, removeRow).
import type { Database, Statement } from 'better-sqlite3';
import type { BlockField } from '../shared/model.js';
import { indexedTextOf, type StoredText } from './prepared-message.js';

/** Deferred full-text rows are written once they hold about this many characters or bytes (several files' worth). */
export const FTS_BATCH_CHARS = 8_000_000;
/** A file with at least this many bytes to read is written with its full-text rows inline (see beginFile). */
export const INLINE_FTS_BYTES = 8 * 1024 * 1024;
/** FTS5 automerge outside (as schema 1 sets it) and during a bulk ingest (0: none; see setBulkMerging). */
const AUTOMERGE = 8;
const BULK_AUTOMERGE = 0;
/** Segments on one level of the full-text index that FTS5 merges at once, whatever automerge says. */
const CRISISMERGE = 64;
/** FTS5 hashsize (bytes of pending index data before a segment is written): FTS5's default, and for a bulk. */
const HASHSIZE = 1024 * 1024;
const BULK_HASHSIZE = 4 * 1024 * 1024;
/** What FTS5 uses for an option the store has no row for. */
const FTS5_DEFAULTS = { automerge: 4, hashsize: HASHSIZE, crisismerge: 16 } as const;
/** Segments of the full-text index above which a bulk ingest merges them into one (see compact). */
export const MAX_SEGMENTS = 16;
/** Bytes of packed-text buffers pending full-text rows may keep alive before the batch is written. */
const PENDING_BUFFER_BYTES = 2 * FTS_BATCH_CHARS;

/** What the ingest engine does with the full-text batches between file transactions. */
export interface FtsBatches {
  /** Characters (UTF-8 bytes for packed texts) of full-text rows waiting for the next batch. */
  readonly pendingChars: number;
  /** Writes the batch once it is big enough. */
  maybeFlush(): void;
  /** Writes every deferred full-text row and moves fts_state up, in one transaction. */
  flush(): void;
  /** Indexes the blocks an interrupted ingest stored but did not index yet. Returns how many. */
  catchUp(): number;
  /** Bulk FTS5 merge settings during a bulk ingest, or the usual ones (see FtsBatcher.setBulkMerging). */
  setBulkMerging(bulk: boolean): void;
  /** Merges the index into one segment when it has more than MAX_SEGMENTS. True when it did. */
  compact(): boolean;
}

interface FtsStatements {
  insert: Statement<[number, StoredText]>;
  remove: Statement<[number]>;
  maxBlockId: Statement<[], number>;
  blocksAfter: Statement<[number], { id: number; field: BlockField; text: string }>;
  indexedThrough: Statement<[], number>;
  setIndexedThrough: Statement<[number]>;
  option: Statement<[string], number>;
}

/**
 * Rows waiting for the next batch: block id → indexed text (a string or its UTF-8 bytes). A packed
 * text is a view that keeps its whole batch's buffer alive (see core/ingest text packing), so those
 * buffers are counted too, until the flush.
 */
class PendingRows {
  readonly rows = new Map<number, StoredText>();
  chars = 0;
  private readonly buffers = new Set<ArrayBufferLike>();
  bufferBytes = 0;

  add(id: number, text: StoredText): void {
    this.rows.set(id, text);
    this.chars += text.length;
    if (typeof text !== 'string' && !this.buffers.has(text.buffer)) {
      this.buffers.add(text.buffer);
      this.bufferBytes += text.buffer.byteLength;
    }
  }

  /** The pending text of `id`, removed, if any. */
  take(id: number): StoredText | undefined {
    const text = this.rows.get(id);
    if (text === undefined) return undefined;
    this.rows.delete(id);
    this.chars -= text.length;
    return text;
  }

  clear(): void {
    this.rows.clear();
    this.chars = 0;
    this.buffers.clear();
    this.bufferBytes = 0;
  }
}

/** What the open file transaction changed, undone if it rolls back. */
interface OpenFile {
  /** The file writes its full-text rows itself (a large file: memory stays bounded). */
  inline: boolean;
  added: Set<number>;
  removed: [number, StoredText][];
  /** indexed_through as the inline file set it, applied once it commits. */
  through?: number;
}

const closedFile = (inline = false): OpenFile => ({ inline, added: new Set(), removed: [] });

export class FtsBatcher implements FtsBatches {
  private readonly s: FtsStatements;
  /** Every block with an id up to this one is in blocks_fts (fts_state). */
  private indexedThrough: number;
  private readonly pending = new PendingRows();
  private file: OpenFile = closedFile();

  constructor(private readonly db: Database) {
    this.s = {
      insert: db.prepare('INSERT INTO blocks_fts (rowid, text) VALUES (?, CAST(? AS TEXT))'),
      remove: db.prepare('DELETE FROM blocks_fts WHERE rowid = ?'),
      maxBlockId: db.prepare<[], number>('SELECT COALESCE(MAX(id), 0) FROM blocks').pluck(),
      blocksAfter: db.prepare('SELECT id, field, text FROM blocks WHERE id > ? ORDER BY id'),
      indexedThrough: db.prepare<[], number>('SELECT indexed_through FROM fts_state WHERE id = 1').pluck(),
      setIndexedThrough: db.prepare('UPDATE fts_state SET indexed_through = ? WHERE id = 1'),
      option: db.prepare<[string], number>('SELECT v FROM blocks_fts_config WHERE k = ?').pluck(),
    };
    this.indexedThrough = this.s.indexedThrough.get() ?? 0;
  }

  private writeRow(id: number, text: StoredText): void {
    this.s.insert.run(id, text);
  }

  private removeRow(id: number): void {
    this.s.remove.run(id);
  }

  /** Before a file transaction: an inline file first writes the pending batch, then its own rows as it goes. */
  beginFile(inline: boolean): void {
    if (inline) this.flush();
    this.file = closedFile(inline);
  }

  /** Defers the block's full-text row to the next batch (ids above indexedThrough) or writes it now. */
  index(blockId: number, text: StoredText): void {
    // An id reused after the highest blocks were deleted is one fts_state already counts as indexed.
    if (this.file.inline || blockId <= this.indexedThrough) {
      this.writeRow(blockId, text);
      return;
    }
    this.pending.add(blockId, text);
    this.file.added.add(blockId);
  }

  /** Removes the full-text rows (written or pending) of blocks about to be deleted. */
  unindex(ids: readonly number[]): void {
    for (const id of ids) {
      const pending = this.pending.take(id);
      if (pending !== undefined) {
        // A row this transaction added must not come back if it rolls back (the block is gone then too).
        if (!this.file.added.has(id)) this.file.removed.push([id, pending]);
      } else if (this.file.inline || id <= this.indexedThrough) {
        this.removeRow(id);
      }
    }
  }

  /** Inside the file transaction, last: fts_state covers the rows written inline (no-op otherwise). */
  endFile(): void {
    if (!this.file.inline) return;
    const through = this.s.maxBlockId.get() ?? 0;
    if (through > this.indexedThrough) {
      this.s.setIndexedThrough.run(through);
      this.file.through = through;
    }
  }

  /**
   * After the file transaction: a rollback drops the rows it deferred (their ids may be reused) and restores those it
   * removed.
   */
  settleFile(committed: boolean): void {
    if (!committed) {
      for (const id of this.file.added) this.pending.take(id);
      for (const [id, text] of this.file.removed) this.pending.add(id, text);
    } else if (this.file.through !== undefined) {
      this.indexedThrough = this.file.through;
    }
    this.file = closedFile();
  }

  get pendingChars(): number {
    return this.pending.chars;
  }

  maybeFlush(): void {
    if (this.pending.chars >= FTS_BATCH_CHARS || this.pending.bufferBytes >= PENDING_BUFFER_BYTES) this.flush();
  }

  flush(): void {
    const through = this.s.maxBlockId.get() ?? 0;
    const rows = this.pending.rows;
    if (rows.size === 0 && through <= this.indexedThrough) return;
    const ids = [...rows.keys()].sort((a, b) => a - b);
    this.db
      .transaction(() => {
        for (const id of ids) this.writeRow(id, rows.get(id)!);
        this.s.setIndexedThrough.run(through);
      })
      .immediate();
    this.indexedThrough = through;
    this.pending.clear();
  }

  catchUp(): number {
    if ((this.s.maxBlockId.get() ?? 0) <= this.indexedThrough) return 0;
    let n = 0;
    for (const row of this.s.blocksAfter.iterate(this.indexedThrough)) {
      if (row.text.length === 0) continue;
      this.pending.add(row.id, indexedTextOf(row.text, row.field));
      n++;
    }
    this.flush();
    return n;
  }

  /**
   * FTS5 merges a level's segments a little after each write once it has `automerge` of them, and all
   * at once when it has `crisismerge`. A bulk ingest merges nothing (automerge 0) until a level has
   * CRISISMERGE segments, and writes a segment per 4 MB of pending index data instead of 1 MB, so a
   * batch makes one segment (the reasons and figures: ARCHITECTURE.md, key decisions). Set back after the bulk, or
   * by the next ingest if a bulk one was killed; crisismerge stays at 64 so the next small ingest does
   * not merge the whole backlog at once.
   */
  setBulkMerging(bulk: boolean): void {
    this.setOption('automerge', bulk ? BULK_AUTOMERGE : AUTOMERGE);
    this.setOption('hashsize', bulk ? BULK_HASHSIZE : HASHSIZE);
    this.setOption('crisismerge', CRISISMERGE);
  }

  /**
   * A query reads each of its words in every segment: after a bulk ingest left dozens, a question over
   * 19,195 sessions cost 30% more CPU than over one merged segment (docs/performance.md).
   */
  compact(): boolean {
    const segments = this.db.prepare('SELECT COUNT(DISTINCT segid) FROM blocks_fts_idx').pluck().get() as number;
    if (segments <= MAX_SEGMENTS) return false;
    this.db.prepare("INSERT INTO blocks_fts (blocks_fts) VALUES ('optimize')").run();
    return true;
  }

  /** Sets an FTS5 option unless it already is `want` (stored, or FTS5's default when no row is stored). */
  private setOption(key: keyof typeof FTS5_DEFAULTS, want: number): void {
    const current = this.s.option.get(key) ?? FTS5_DEFAULTS[key];
    if (current !== want) this.db.prepare(`INSERT INTO blocks_fts (blocks_fts, rank) VALUES ('${key}', ${want})`).run();
  }
}
