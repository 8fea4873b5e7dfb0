// Owns every write of sessions, messages, blocks, usage and the full-text index. Callers (the ingest
// engine) run each source file in `fileTransaction` (or settle their own transaction with `settleFile`).
// Full-text rows are deferred and written in batches of several files (`flushFts`): one FTS5 segment per
// file made merging the index the largest cost of a bulk ingest. fts_state records how far the index
// reaches, so an interrupted ingest's unindexed tail is indexed by the next one (`catchUpFts`).
import type { Database, Statement } from 'better-sqlite3';
import type { AgentName, BlockField, ParsedMessage, ParsedSession } from '../shared/model.js';
import { indexedText, indexedTextOf, jsonOrNull as json, prepareMessage, type PreparedBlock, type PreparedMessage, type StoredText } from './prepared-message.js';
import { MessageHistory } from './message-history.js';

/** Deferred full-text rows are written once they hold about this many characters or bytes (several files' worth). */
export const FTS_BATCH_CHARS = 8_000_000;
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
/** Bytes of packed-text buffers pending full-text rows may keep alive before the batch is written. */
const PENDING_BUFFER_BYTES = 2 * FTS_BATCH_CHARS;
/** Message keys a file transaction keeps in memory for sessions new to the store (see findMessage). */
const FRESH_KEYS_MAX = 20_000;
/** The upserted title replaces the stored one: it is set, and its parse's messages reach at least as late. */
const NEWER_TITLE = `excluded.title IS NOT NULL AND (sessions.title IS NULL OR excluded.title_at IS NULL OR sessions.title_at IS NULL
  OR excluded.title_at >= sessions.title_at)`;
/** A file with at least this many bytes to read is written with its full-text rows inline (see fileTransaction). */
export const INLINE_FTS_BYTES = 8 * 1024 * 1024;

export interface SourceRow {
  id: number;
  path: string;
  agent: string;
  size: number;
  mtime_ms: number;
  offset: number;
  lines: number;
  prefix_hash: string | null;
  fingerprint: string | null;
  state: string | null;
  status: string;
}

export interface WriteResult {
  messagesAdded: number;
  messagesUpdated: number;
  blocksAdded: number;
  /** Messages that vanished from their source: archived, never deleted. */
  messagesArchived?: number;
}

export { blockField, messageContentHash, prepareMessage, type PreparedMessage } from './prepared-message.js';

/** What the writer knows of a stored message it looked up. */
interface StoredMessage {
  id: number;
  content_hash: string | null;
  archived: number;
  source_id: number | null;
}

/** A session as upserted: `titleAt` is the newest message time of the parse that carries its title. */
export type SessionUpsert = Partial<ParsedSession> & { key: string; titleAt?: string | null };

export class SessionWriter {
  private readonly history: MessageHistory;
  private readonly hasTitleAt: boolean;
  private readonly s: Record<string, Statement>;
  private readonly nextSeq = new Map<number, number>();
  /**
   * Sessions that had no stored message when the open file transaction first wrote to them: every
   * message they have is then in this map (key → id and hash), so looking one up needs no query.
   */
  private readonly freshSessions = new Map<number, Map<string, StoredMessage>>();
  /** Sessions the open file transaction has written to (fresh or not). */
  private readonly txSessions = new Set<number>();
  /** Keys held in freshSessions; past FRESH_KEYS_MAX the transaction looks messages up (bounded memory). */
  private freshKeys = 0;
  readonly touchedSessions = new Set<number>();
  /** Every block with an id up to this one is in blocks_fts (fts_state). */
  private indexedThrough: number;
  /** Blocks stored but not yet in blocks_fts: block id → indexed text (a string or its UTF-8 bytes). */
  private readonly pendingFts = new Map<number, StoredText>();
  private pendingChars = 0;
  /**
   * The buffers pending packed texts are views into (see core/ingest/text-pack.ts), and their total size:
   * a view keeps its whole batch's buffer alive (other texts, JSON columns, a tool output clipped for the
   * index), so the batch is also written once these pass PENDING_BUFFER_BYTES. Counted until the flush.
   */
  private readonly pendingBuffers = new Set<ArrayBufferLike>();
  private pendingBufferBytes = 0;
  /** What the open file transaction changed in pendingFts, undone if it rolls back. */
  private txAdded = new Set<number>();
  private txRemoved: [number, StoredText][] = [];
  /** The open file transaction writes its full-text rows itself (a large file: memory stays bounded). */
  private inline = false;
  /** indexed_through as the open inline transaction set it, applied once it commits. */
  private inlineThrough: number | undefined;
  private readonly setIndexedThrough: Statement | undefined;
  /** Statements naming results stored before their call (schema 6+). */
  private readonly results: { waiting: Statement; waitingFor: Statement; name: Statement; named: Statement } | undefined;

  /**
   * @param afterRefresh called with the sessions just refreshed, inside the same transaction — how
   * capabilities above the store (retrieval statistics) keep their derived rows current.
   */
  constructor(
    private readonly db: Database,
    private readonly afterRefresh?: (sessionIds: ReadonlySet<number>) => void,
  ) {
    const p = (sql: string) => db.prepare(sql);
    // A store before schema 9 (only built by tests that write old schemas) has no title_at or archived columns.
    const v9 = db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'message_versions'").pluck().get() === 1;
    const titleAt = (sql: string) => (v9 ? sql : '');
    this.s = {
      upsertSession: p(`INSERT INTO sessions (agent, external_id, project, git_branch, title, ${titleAt('title_at, ')}parent_external_id, relation, meta, updated_at)
        VALUES (@agent, @key, @project, @gitBranch, @title, ${titleAt('@titleAt, ')}@parentKey, @relation, @meta, @now)
        ON CONFLICT (agent, external_id) DO UPDATE SET
          project = COALESCE(sessions.project, excluded.project),
          git_branch = COALESCE(excluded.git_branch, sessions.git_branch),
          -- Of two versions of one session, the title of the one whose messages reach later wins (see migration 9).
          ${v9 ? `title = CASE WHEN ${NEWER_TITLE} THEN excluded.title ELSE sessions.title END,
          title_at = CASE WHEN ${NEWER_TITLE} THEN COALESCE(excluded.title_at, sessions.title_at) ELSE sessions.title_at END,` : 'title = COALESCE(excluded.title, sessions.title),'}
          parent_external_id = COALESCE(excluded.parent_external_id, sessions.parent_external_id),
          relation = COALESCE(excluded.relation, sessions.relation),
          meta = COALESCE(excluded.meta, sessions.meta),
          archived = 0,
          updated_at = excluded.updated_at
        RETURNING id`),
      linkSource: p('INSERT OR IGNORE INTO session_sources (session_id, source_id) VALUES (?, ?)'),
      maxSeq: p('SELECT COALESCE(MAX(seq), 0) AS m FROM messages WHERE session_id = ?'),
      findMessage: p(`SELECT id, content_hash, ${v9 ? 'archived' : '0 AS archived'}, source_id FROM messages WHERE session_id = ? AND key = ?`),
      insertMessage: p(`INSERT INTO messages (session_id, key, seq, role, kind, timestamp, model, source_id, line, is_sidechain, content_hash, meta)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT))`),
      mergeMessage: p(`UPDATE messages SET timestamp = COALESCE(timestamp, @timestamp), model = COALESCE(model, @model),
        kind = CASE WHEN kind = 'response' AND @kind = 'error' THEN 'error' ELSE kind END, content_hash = NULL WHERE id = @id`),
      rewriteMessage: p(`UPDATE messages SET role = @role, kind = @kind, timestamp = @timestamp, model = @model, source_id = @sourceId,
        line = @line, is_sidechain = @sidechain, content_hash = @hash, meta = CAST(@meta AS TEXT)${v9 ? ', archived = 0' : ''} WHERE id = @id`),
      // Texts may come as UTF-8 bytes (packed by the ingest worker): CAST stores them as TEXT, unchanged.
      insertBlock: p(`INSERT INTO blocks (message_id, idx, kind, field, text, tool_name, tool_call_id, tool_input, is_error, noise, meta)
        VALUES (?, ?, ?, ?, CAST(? AS TEXT), ?, ?, CAST(? AS TEXT), ?, ?, CAST(? AS TEXT))`),
      insertFts: p('INSERT INTO blocks_fts (rowid, text) VALUES (?, CAST(? AS TEXT))'),
      maxBlockId: p('SELECT COALESCE(MAX(id), 0) FROM blocks'),
      blocksAfter: p('SELECT id, field, text FROM blocks WHERE id > ? ORDER BY id'),
      // A result whose call was stored earlier (an appended file): the call is looked for in its session;
      // one stored before its call waits in unnamed_results for it (see `results`).
      callName: p(`SELECT b.tool_name FROM messages m JOIN blocks b ON b.message_id = m.id
        WHERE m.session_id = ? AND b.tool_call_id = ? AND b.kind = 'tool_call' AND b.tool_name IS NOT NULL ORDER BY m.seq DESC LIMIT 1`),
      blockIdsOfMessage: p('SELECT id FROM blocks WHERE message_id = ?'),
      deleteFts: p('DELETE FROM blocks_fts WHERE rowid = ?'),
      deleteBlocks: p('DELETE FROM blocks WHERE message_id = ?'),
      deleteBlock: p('DELETE FROM blocks WHERE id = ?'),
      deleteMessage: p('DELETE FROM messages WHERE id = ?'),
      messagesOfSource: p('SELECT id, session_id AS sessionId, key FROM messages WHERE source_id = ?'),
      upsertUsage: p(`INSERT INTO usage (session_id, api_message_id, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (session_id, api_message_id) DO UPDATE SET
          input_tokens = MAX(usage.input_tokens, excluded.input_tokens), output_tokens = MAX(usage.output_tokens, excluded.output_tokens),
          cache_read_tokens = MAX(usage.cache_read_tokens, excluded.cache_read_tokens), cache_write_tokens = MAX(usage.cache_write_tokens, excluded.cache_write_tokens)`),
      // One pass over the session's messages and one over its usage rows (not one per column).
      refreshSession: p(`UPDATE sessions SET
          (message_count, prompt_count, started_at, ended_at) = (SELECT COUNT(*), COUNT(CASE WHEN kind = 'prompt' THEN 1 END),
            MIN(timestamp), MAX(timestamp) FROM messages WHERE session_id = @id),
          models = (SELECT COALESCE(json_group_array(model), '[]') FROM (SELECT DISTINCT model FROM messages WHERE session_id = @id AND model IS NOT NULL ORDER BY model)),
          (input_tokens, output_tokens, cache_read_tokens, cache_write_tokens) = (SELECT COALESCE(SUM(input_tokens), 0),
            COALESCE(SUM(output_tokens), 0), COALESCE(SUM(cache_read_tokens), 0), COALESCE(SUM(cache_write_tokens), 0)
            FROM usage WHERE session_id = @id)
        WHERE id = @id`),
      linkParents: p(`UPDATE sessions SET parent_id = (SELECT p.id FROM sessions p WHERE p.agent = sessions.agent AND p.external_id = sessions.parent_external_id)
        WHERE parent_external_id IS NOT NULL AND parent_id IS NULL`),
    };
    this.s.maxBlockId!.pluck();
    this.history = new MessageHistory(db);
    this.hasTitleAt = v9;
    this.s.callName!.pluck();
    // A store before schema 6 (only built by tests that write old schemas) has no fts_state: rows are
    // then written at once, as those versions did.
    const batched = db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'fts_state'").pluck().get() === 1;
    this.setIndexedThrough = batched ? db.prepare('UPDATE fts_state SET indexed_through = ? WHERE id = 1') : undefined;
    this.indexedThrough = batched ? (db.prepare('SELECT indexed_through FROM fts_state WHERE id = 1').pluck().get() as number) : Number.POSITIVE_INFINITY;
    this.results = batched
      ? {
          waiting: p('INSERT OR IGNORE INTO unnamed_results (session_id, call_id, block_id) VALUES (?, ?, ?)'),
          waitingFor: p('SELECT block_id FROM unnamed_results WHERE session_id = ? AND call_id = ?').pluck(),
          name: p('UPDATE blocks SET tool_name = ? WHERE id = ?'),
          named: p('DELETE FROM unnamed_results WHERE session_id = ? AND call_id = ?'),
        }
      : undefined;
  }

  upsertSession(agent: AgentName, session: SessionUpsert, sourceId: number): number {
    const row = this.s.upsertSession!.get({
      agent,
      key: session.key,
      project: session.project ?? null,
      gitBranch: session.gitBranch ?? null,
      title: session.title ?? null,
      ...(this.hasTitleAt ? { titleAt: session.titleAt ?? null } : {}),
      parentKey: session.parentKey ?? null,
      relation: session.relation ?? null,
      meta: json(session.meta),
      now: new Date().toISOString(),
    }) as { id: number };
    this.s.linkSource!.run(row.id, sourceId);
    this.touchedSessions.add(row.id);
    return row.id;
  }

  private lastSeq(sessionId: number): number {
    let seq = this.nextSeq.get(sessionId);
    if (seq === undefined) {
      seq = (this.s.maxSeq!.get(sessionId) as { m: number }).m;
      this.nextSeq.set(sessionId, seq);
    }
    return seq;
  }

  private allocSeq(sessionId: number): number {
    const seq = this.lastSeq(sessionId) + 1;
    this.nextSeq.set(sessionId, seq);
    return seq;
  }

  /**
   * True when every message of the session was written by the open file transaction: it had none when
   * the transaction first wrote to it (and the transaction still tracks its keys).
   */
  holdsAllMessagesOf(sessionId: number): boolean {
    return this.freshSessions.has(sessionId);
  }

  /** The stored message with this key, if any (no query for a session that was empty at the start of the file). */
  private findMessage(sessionId: number, key: string): StoredMessage | undefined {
    if (!this.txSessions.has(sessionId)) {
      this.txSessions.add(sessionId);
      if (this.freshKeys < FRESH_KEYS_MAX && this.lastSeq(sessionId) === 0) this.freshSessions.set(sessionId, new Map());
    }
    const fresh = this.freshSessions.get(sessionId);
    if (fresh) return fresh.get(key);
    return this.s.findMessage!.get(sessionId, key) as StoredMessage | undefined;
  }

  private insertBlocks(sessionId: number, messageId: number, blocks: PreparedBlock[], startIdx: number): number {
    let idx = startIdx;
    const insertBlock = this.s.insertBlock!;
    for (const block of blocks) {
      let toolName = block.toolName;
      if (toolName === null && block.kind === 'tool_result' && block.toolCallId !== null) {
        toolName = (this.s.callName!.get(sessionId, block.toolCallId) as string | undefined) ?? null;
      }
      const blockId = Number(insertBlock.run(messageId, idx++, block.kind, block.field, block.text, toolName, block.toolCallId, block.toolInput, block.isError, block.noise, block.meta).lastInsertRowid);
      if (block.text.length > 0) this.indexBlock(blockId, indexedText(block));
      if (block.toolCallId !== null && this.results) {
        if (block.kind === 'tool_result' && toolName === null) this.results.waiting.run(sessionId, block.toolCallId, blockId);
        else if (block.kind === 'tool_call' && toolName !== null) this.nameWaitingResults(this.results, sessionId, block.toolCallId, toolName);
      }
    }
    return blocks.length;
  }

  private nameWaitingResults(results: NonNullable<SessionWriter['results']>, sessionId: number, callId: string, toolName: string): void {
    const waiting = results.waitingFor.all(sessionId, callId) as number[];
    if (waiting.length === 0) return;
    for (const id of waiting) results.name.run(toolName, id);
    results.named.run(sessionId, callId);
  }

  /** Defers the block's full-text row to the next batch (ids above indexedThrough) or writes it now. */
  private indexBlock(blockId: number, text: StoredText): void {
    // An id reused after the highest blocks were deleted is one fts_state already counts as indexed.
    if (this.inline || blockId <= this.indexedThrough) {
      this.s.insertFts!.run(blockId, text);
      return;
    }
    this.pendingFts.set(blockId, text);
    this.pendingChars += text.length;
    if (typeof text !== 'string' && !this.pendingBuffers.has(text.buffer)) {
      this.pendingBuffers.add(text.buffer);
      this.pendingBufferBytes += text.buffer.byteLength;
    }
    this.txAdded.add(blockId);
  }

  private deleteBlocksOf(messageId: number): void {
    this.unindex((this.s.blockIdsOfMessage!.all(messageId) as { id: number }[]).map((b) => b.id));
    this.s.deleteBlocks!.run(messageId);
  }

  /** Removes the full-text rows (written or pending) of blocks about to be deleted. */
  private unindex(ids: number[]): void {
    for (const id of ids) {
      const pending = this.pendingFts.get(id);
      if (pending !== undefined) {
        this.pendingFts.delete(id);
        this.pendingChars -= pending.length;
        // A row this transaction added must not come back if it rolls back (the block is gone then too).
        if (!this.txAdded.has(id)) this.txRemoved.push([id, pending]);
      } else if (this.inline || id <= this.indexedThrough) {
        this.s.deleteFts!.run(id);
      }
    }
  }

  /** A rewritten line source is about to be read again from its start (see MessageHistory.finishRewrite). */
  beginRewrite(): void {
    this.history.beginRewrite();
  }

  /**
   * After a rewritten source was read again: blocks its messages no longer hold are dropped from them,
   * their earlier content saved as a version first. Returns how many messages changed.
   */
  finishRewrite(sourceId: number): number {
    return this.history.finishRewrite(sourceId, (ids) => {
      this.unindex(ids);
      for (const id of ids) this.s.deleteBlock!.run(id);
    });
  }

  /**
   * Runs `work` as one source file's transaction (BEGIN IMMEDIATE … COMMIT). `inline` (a large file)
   * writes the pending batch first and the file's own full-text rows within its transaction, so no
   * file's text is ever held in memory whole.
   */
  fileTransaction<T>(work: () => T, options: { inline?: boolean } = {}): T {
    if (options.inline) this.beginInlineFile();
    let result: T;
    try {
      result = this.db.transaction(() => {
        const value = work();
        this.endInlineFile();
        return value;
      }).immediate();
    } catch (error) {
      this.settleFile(false);
      throw error;
    }
    this.settleFile(true);
    return result;
  }

  /** Before a file transaction the caller opens itself: its full-text rows will be written within it. */
  beginInlineFile(): void {
    this.flushFts();
    this.inline = true;
  }

  /** Inside the file transaction, last: fts_state covers the rows written inline (no-op otherwise). */
  endInlineFile(): void {
    if (!this.inline) return;
    const through = this.s.maxBlockId!.get() as number;
    if (through > this.indexedThrough) {
      this.setIndexedThrough?.run(through);
      this.inlineThrough = through;
    }
  }

  /**
   * Ends the bookkeeping of a file transaction the caller opened and ended itself. After a rollback the
   * full-text rows it deferred are dropped (their block ids may be reused) and the ones it removed return.
   */
  settleFile(committed: boolean): void {
    if (!committed) {
      for (const id of this.txAdded) {
        const text = this.pendingFts.get(id);
        if (text === undefined) continue;
        this.pendingFts.delete(id);
        this.pendingChars -= text.length;
      }
      for (const [id, text] of this.txRemoved) {
        this.pendingFts.set(id, text);
        this.pendingChars += text.length;
      }
      this.touchedSessions.clear();
      this.nextSeq.clear();
    } else if (this.inlineThrough !== undefined && this.setIndexedThrough) {
      this.indexedThrough = this.inlineThrough;
    }
    this.inline = false;
    this.inlineThrough = undefined;
    this.freshSessions.clear();
    this.txSessions.clear();
    this.history.settleFile(committed);
    this.freshKeys = 0;
    this.txAdded = new Set();
    this.txRemoved = [];
  }

  /** Characters (UTF-8 bytes for packed texts) of full-text rows waiting for the next batch. */
  get pendingFtsChars(): number {
    return this.pendingChars;
  }

  /** Writes the batch once it is big enough; call between file transactions. */
  maybeFlushFts(): void {
    if (this.pendingChars >= FTS_BATCH_CHARS || this.pendingBufferBytes >= PENDING_BUFFER_BYTES) this.flushFts();
  }

  /** Writes every deferred full-text row and moves fts_state up, in one transaction; call between files. */
  flushFts(): void {
    const through = this.s.maxBlockId!.get() as number;
    if (this.pendingFts.size === 0 && through <= this.indexedThrough) return;
    const ids = [...this.pendingFts.keys()].sort((a, b) => a - b);
    const insertFts = this.s.insertFts!;
    this.db
      .transaction(() => {
        for (const id of ids) insertFts.run(id, this.pendingFts.get(id)!);
        this.setIndexedThrough?.run(through);
      })
      .immediate();
    this.indexedThrough = through;
    this.pendingFts.clear();
    this.pendingChars = 0;
    this.pendingBuffers.clear();
    this.pendingBufferBytes = 0;
  }

  /**
   * FTS5 merges a level's segments a little after each write once it has `automerge` of them, and all
   * at once when it has `crisismerge`. A bulk ingest merges nothing (automerge 0) until a level has
   * CRISISMERGE segments: on 1 GB (46 segments, one per batch) that is no merge at all, where automerge
   * 32 with FTS5's crisis merge at 16 stalled the writer twice for ~0.5 s (~1 s of ~5 s of full-text
   * work). Searches over 46 segments measured +1 ms in-process (6.0 -> 6.7-7.3 ms p50). Automerge is
   * set back after the bulk (also by the next ingest, if a bulk one was killed), and later writes merge
   * the backlog a little at a time (one merge of all its segments, a few pages per write); crisismerge
   * stays at 64, so that the next small ingest does not merge the whole backlog at once (~1.5 s per GB).
   * A bulk of more than ~64 batches (~1.4 GB) does merge 64 segments at once, a longer stall than the
   * old merges of 16.
   * The pending index data is written as a segment every 4 MB instead of every 1 MB: a full-text batch
   * (~8 MB of text) then makes one segment instead of five or six (replayed write path: full-text
   * flush time -15..20%; 2-8 MB measured alike).
   */
  setBulkMerging(bulk: boolean): void {
    this.setFtsOption('automerge', bulk ? BULK_AUTOMERGE : AUTOMERGE);
    this.setFtsOption('hashsize', bulk ? BULK_HASHSIZE : HASHSIZE);
    this.setFtsOption('crisismerge', CRISISMERGE);
  }

  /** Sets an FTS5 option unless it already is `want` (stored, or FTS5's default when no row is stored). */
  private setFtsOption(key: keyof typeof FTS5_DEFAULTS, want: number): void {
    const current = this.db.prepare('SELECT v FROM blocks_fts_config WHERE k = ?').pluck().get(key) ?? FTS5_DEFAULTS[key];
    if (current !== want) this.db.prepare(`INSERT INTO blocks_fts (blocks_fts, rank) VALUES ('${key}', ${want})`).run();
  }

  /** Indexes the blocks an interrupted ingest stored but did not index yet. Returns how many. */
  catchUpFts(): number {
    if ((this.s.maxBlockId!.get() as number) <= this.indexedThrough) return 0;
    let n = 0;
    for (const row of this.s.blocksAfter!.iterate(this.indexedThrough) as Iterable<{ id: number; field: BlockField; text: string }>) {
      if (row.text.length === 0) continue;
      const text = indexedTextOf(row.text, row.field);
      this.pendingFts.set(row.id, text);
      this.pendingChars += text.length;
      n++;
    }
    this.flushFts();
    return n;
  }

  /**
   * Writes one message. mode 'merge' (appended lines): an existing message with the same key gets the
   * new blocks appended. mode 'replace' (whole-file re-parse): an existing message is rewritten only
   * when its content hash changed.
   */
  writeMessage(sessionId: number, sourceId: number, message: ParsedMessage, mode: 'merge' | 'replace', result: WriteResult): void {
    this.writePrepared(sessionId, sourceId, prepareMessage(message, mode), mode, result);
  }

  /** `writeMessage` for a message already turned into column values (see prepared-message.ts). */
  writePrepared(sessionId: number, sourceId: number, message: PreparedMessage, mode: 'merge' | 'replace', result: WriteResult): void {
    const existing = this.findMessage(sessionId, message.key);
    const hash = message.hash;
    if (!existing) {
      if (!this.freshSessions.has(sessionId)) this.history.checkOrder(sessionId, sourceId, message.timestamp);
      const seq = this.allocSeq(sessionId);
      const messageId = Number(
        this.s.insertMessage!.run(sessionId, message.key, seq, message.role, message.kind, message.timestamp, message.model, sourceId, message.line, message.sidechain, hash, message.meta)
          .lastInsertRowid,
      );
      const fresh = this.freshSessions.get(sessionId);
      if (fresh) {
        fresh.set(message.key, { id: messageId, content_hash: hash, archived: 0, source_id: sourceId });
        // A huge file (a streamed Puffin history is one transaction) stops keeping keys: lookups instead.
        if (++this.freshKeys >= FRESH_KEYS_MAX) this.freshSessions.clear();
      }
      result.blocksAdded += this.insertBlocks(sessionId, messageId, message.blocks, 0);
      result.messagesAdded++;
    } else if (mode === 'merge') {
      // The same lines read again (another path to the file, a rewritten file) add only what is new.
      const { blocks, nextIdx } = this.history.newBlocks(existing.id, message.blocks);
      if (existing.archived) this.unarchive(existing);
      if (blocks.length > 0) {
        this.s.mergeMessage!.run({ id: existing.id, timestamp: message.timestamp, model: message.model, kind: message.kind });
        existing.content_hash = null;
        result.blocksAdded += this.insertBlocks(sessionId, existing.id, blocks, nextIdx);
        result.messagesUpdated++;
      }
    } else if (existing.content_hash !== hash && this.history.beforeRewrite(existing.id, existing.source_id, sourceId, existing.content_hash, message.blocks)) {
      this.deleteBlocksOf(existing.id);
      this.s.rewriteMessage!.run({
        id: existing.id,
        role: message.role,
        kind: message.kind,
        timestamp: message.timestamp,
        model: message.model,
        sourceId,
        line: message.line,
        sidechain: message.sidechain,
        hash,
        meta: message.meta,
      });
      existing.content_hash = hash;
      existing.archived = 0;
      existing.source_id = sourceId;
      result.blocksAdded += this.insertBlocks(sessionId, existing.id, message.blocks, 0);
      result.messagesUpdated++;
    } else if (existing.archived) {
      this.unarchive(existing);
    }
    if (message.usage) {
      const u = message.usage;
      this.s.upsertUsage!.run(sessionId, u.apiMessageId, u.model ?? message.model, u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens);
    }
    this.touchedSessions.add(sessionId);
  }

  /**
   * Deletes the messages of a source except those whose `sessionId\u0000key` is in `keep`. Returns how many
   * went. The ingest never calls it: a re-ingest archives what vanished (archiveVanished).
   */
  deleteMessagesOfSource(sourceId: number, keep: Set<string>, onlySessions?: Set<number>): number {
    let deleted = 0;
    for (const m of this.s.messagesOfSource!.all(sourceId) as { id: number; sessionId: number; key: string }[]) {
      if (onlySessions && !onlySessions.has(m.sessionId)) continue;
      if (keep.has(`${m.sessionId}\u0000${m.key}`)) continue;
      this.deleteBlocksOf(m.id);
      this.s.deleteMessage!.run(m.id);
      this.freshSessions.get(m.sessionId)?.delete(m.key);
      this.touchedSessions.add(m.sessionId);
      deleted++;
    }
    return deleted;
  }

  private unarchive(existing: StoredMessage): void {
    this.history.unarchive(existing.id);
    existing.archived = 0;
  }

  /**
   * Archives (never deletes) the messages of a source that its new content no longer has: `keep` holds
   * `sessionId\u0000key` of those it has. Returns how many were archived.
   */
  archiveVanished(sourceId: number, keep: Set<string>, onlySessions?: Set<number>): number {
    const { sessions, archived } = this.history.archiveVanished(sourceId, keep, onlySessions);
    for (const id of sessions) {
      this.touchedSessions.add(id);
      const fresh = this.freshSessions.get(id);
      if (fresh) for (const [key, entry] of fresh) if (!keep.has(`${id}\u0000${key}`)) entry.archived = 1;
    }
    return archived;
  }

  /** Recomputes counts, time range, models and token totals of every session touched so far. */
  refreshTouchedSessions(): void {
    for (const id of this.history.resequenceUnordered()) this.nextSeq.delete(id);
    for (const id of this.touchedSessions) this.s.refreshSession!.run({ id });
    this.afterRefresh?.(this.touchedSessions);
    this.touchedSessions.clear();
  }

  linkParents(): void {
    this.s.linkParents!.run();
  }
}
