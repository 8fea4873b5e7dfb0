// Owns every write of sessions, messages, blocks and usage. Callers (the ingest engine) run each source
// file in `withFileTransaction`; the block's full-text rows go through the FTS batcher (fts-batcher.ts),
// which defers them to batches of several files (`fts`, between files).
import type { Database } from 'better-sqlite3';
import type { AgentName, ParsedMessage, ParsedSession } from '../shared/model.js';
import { jsonOrNull as json, prepareMessage, type PreparedMessage } from './prepared-message.js';
import { MessageHistory } from './message-history.js';
import { FtsBatcher, type FtsBatches } from './fts-batcher.js';
import { prepareWriterStatements, type StoredMessage, type WriterStatements } from './writer-statements.js';
import { AppendedStats } from './appended-stats.js';
import { BlockWriter } from './block-writer.js';
import { MessageLookup } from './message-lookup.js';
import { refreshSessionStats } from './session-stats.js';
import type { CallStats } from '../shared/tool-calls/call-stats.js';

export { FTS_BATCH_CHARS, INLINE_FTS_BYTES, type FtsBatches } from './fts-batcher.js';
export { blockField, messageContentHash, prepareMessage, type PreparedMessage } from './prepared-message.js';

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

/** A session as upserted: `titleAt` is the newest message time of the parse that carries its title. */
export type SessionUpsert = Partial<ParsedSession> & { key: string; titleAt?: string | null };

export interface FileTransactionOptions {
  /** A large file: the pending batch is written first and the file's own full-text rows within its transaction. */
  inline?: boolean;
}

export class SessionWriter {
  private readonly s: WriterStatements;
  private readonly history: MessageHistory;
  private readonly batcher: FtsBatcher;
  /** The full-text batches, for the caller between file transactions. */
  readonly fts: FtsBatches;
  private readonly lookup: MessageLookup;
  private readonly blocks: BlockWriter;
  private readonly appended = new AppendedStats();
  readonly touchedSessions = new Set<number>();

  /**
   * @param afterRefresh called with the sessions just refreshed, inside the same transaction — how
   * capabilities above the store keep rows they derive from sessions current.
   */
  constructor(
    private readonly db: Database,
    private readonly afterRefresh?: (sessionIds: ReadonlySet<number>) => void,
  ) {
    this.s = prepareWriterStatements(db);
    this.history = new MessageHistory(db);
    this.batcher = new FtsBatcher(db);
    this.fts = this.batcher;
    this.lookup = new MessageLookup(this.s);
    this.blocks = new BlockWriter(this.s, this.batcher, this.appended);
  }

  /**
   * Runs `work` as one source file's transaction (BEGIN IMMEDIATE … COMMIT), rolled back if it throws
   * or its promise rejects; `work` may be async (a streamed file writes chunks as they arrive).
   */
  withFileTransaction<T>(work: () => Promise<T>, options?: FileTransactionOptions): Promise<T>;
  withFileTransaction<T>(work: () => T, options?: FileTransactionOptions): T;
  withFileTransaction<T>(work: () => T | Promise<T>, options: FileTransactionOptions = {}): T | Promise<T> {
    this.batcher.beginFile(options.inline === true);
    let value: T | Promise<T>;
    try {
      this.s.begin.run();
      value = work();
    } catch (error) {
      this.abortFile();
      throw error;
    }
    if (!(value instanceof Promise)) return this.commitFile(value);
    return value.then(
      (resolved) => this.commitFile(resolved),
      (error: unknown) => {
        this.abortFile();
        throw error;
      },
    );
  }

  private commitFile<T>(value: T): T {
    try {
      this.batcher.endFile();
      this.s.commit.run();
    } catch (error) {
      this.abortFile();
      throw error;
    }
    this.settleFile(true);
    return value;
  }

  private abortFile(): void {
    if (this.db.inTransaction) this.s.rollback.run();
    this.settleFile(false);
  }

  /** Ends a file transaction's bookkeeping; a rollback forgets what it noted. */
  private settleFile(committed: boolean): void {
    if (!committed) this.touchedSessions.clear();
    this.batcher.settleFile(committed);
    this.history.settleFile(committed);
    this.lookup.settleFile(committed);
    this.appended.clear();
  }

  upsertSession(agent: AgentName, session: SessionUpsert, sourceId: number): number {
    const row = this.s.upsertSession.get({
      agent,
      key: session.key,
      project: session.project ?? null,
      gitBranch: session.gitBranch ?? null,
      title: session.title ?? null,
      titleAt: session.titleAt ?? null,
      parentKey: session.parentKey ?? null,
      relation: session.relation ?? null,
      meta: json(session.meta),
      now: new Date().toISOString(),
    })!;
    this.s.linkSource.run(row.id, sourceId);
    this.touchedSessions.add(row.id);
    return row.id;
  }

  /**
   * True when every message of the session was written by the open file transaction: it had none when
   * the transaction first wrote to it (and the transaction still tracks its keys).
   */
  holdsAllMessagesOf(sessionId: number): boolean {
    return this.lookup.holdsAll(sessionId);
  }

  /** A rewritten line source is about to be read again from its start (see MessageHistory.finishRewrite). */
  beginRewrite(): void {
    this.appended.reread();
    this.history.beginRewrite();
  }

  /**
   * After a rewritten source was read again: blocks its messages no longer hold are dropped from them,
   * their earlier content saved as a version first. Returns how many messages changed.
   */
  finishRewrite(sourceId: number): number {
    return this.history.finishRewrite(sourceId, (ids) => this.blocks.deleteBlocks(ids));
  }

  /**
   * Writes one message. mode 'merge' (appended lines): an existing message with the same key gets the
   * new blocks appended. mode 'replace' (whole-file re-parse): an existing message is rewritten only
   * when its content hash changed.
   */
  writeMessage(
    sessionId: number,
    sourceId: number,
    message: ParsedMessage,
    mode: 'merge' | 'replace',
    result: WriteResult,
  ): void {
    this.writePrepared(sessionId, sourceId, prepareMessage(message, mode), mode, result);
  }

  /** `writeMessage` for a message already turned into column values (see prepared-message.ts). */
  writePrepared(
    sessionId: number,
    sourceId: number,
    message: PreparedMessage,
    mode: 'merge' | 'replace',
    result: WriteResult,
  ): void {
    const existing = this.lookup.find(sessionId, message.key);
    if (!existing) this.insertMessage(sessionId, sourceId, message, result);
    else if (mode === 'merge') this.mergeMessage(sessionId, existing, message, result);
    else if (
      existing.content_hash !== message.hash &&
      this.history.beforeRewrite(existing.id, existing.source_id, sourceId, existing.content_hash, message.blocks)
    ) {
      this.rewriteMessage(sessionId, sourceId, existing, message, result);
    } else if (existing.archived) this.unarchive(existing);
    if (message.usage) {
      const u = message.usage;
      this.s.upsertUsage.run(
        sessionId,
        u.apiMessageId,
        u.model ?? message.model,
        u.inputTokens,
        u.outputTokens,
        u.cacheReadTokens,
        u.cacheWriteTokens,
      );
    }
    this.touchedSessions.add(sessionId);
  }

  private insertMessage(sessionId: number, sourceId: number, message: PreparedMessage, result: WriteResult): void {
    if (!this.lookup.holdsAll(sessionId)) this.history.checkOrder(sessionId, sourceId, message.timestamp);
    const seq = this.lookup.allocSeq(sessionId);
    const m = message;
    const messageId = Number(
      this.s.insertMessage.run(
        sessionId,
        m.key,
        seq,
        m.role,
        m.kind,
        m.timestamp,
        m.model,
        sourceId,
        m.line,
        m.sidechain,
        m.hash,
        m.meta,
      ).lastInsertRowid,
    );
    this.appended.message(sessionId, messageId);
    this.lookup.inserted(sessionId, m.key, { id: messageId, content_hash: m.hash, archived: 0, source_id: sourceId });
    result.blocksAdded += this.blocks.insert(sessionId, messageId, m.blocks, 0);
    result.messagesAdded++;
  }

  /** The same lines read again (another path to the file, a rewritten file) add only what is new. */
  private mergeMessage(
    sessionId: number,
    existing: StoredMessage,
    message: PreparedMessage,
    result: WriteResult,
  ): void {
    const { blocks, nextIdx } = this.history.newBlocks(existing.id, message.blocks);
    if (existing.archived) this.unarchive(existing);
    if (blocks.length === 0) return;
    this.s.mergeMessage.run({
      id: existing.id,
      timestamp: message.timestamp,
      model: message.model,
      kind: message.kind,
    });
    existing.content_hash = null;
    result.blocksAdded += this.blocks.insert(sessionId, existing.id, blocks, nextIdx);
    result.messagesUpdated++;
  }

  private rewriteMessage(
    sessionId: number,
    sourceId: number,
    existing: StoredMessage,
    message: PreparedMessage,
    result: WriteResult,
  ): void {
    this.blocks.deleteOf(sessionId, existing.id);
    const { role, kind, timestamp, model, line, sidechain, hash, meta } = message;
    this.s.rewriteMessage.run({ id: existing.id, role, kind, timestamp, model, sourceId, line, sidechain, hash, meta });
    existing.content_hash = hash;
    existing.archived = 0;
    existing.source_id = sourceId;
    result.blocksAdded += this.blocks.insert(sessionId, existing.id, message.blocks, 0);
    result.messagesUpdated++;
  }

  /**
   * Deletes the messages of a source except those whose `sessionId\u0000key` is in `keep`. Returns how many
   * went. The ingest never calls it: a re-ingest archives what vanished (archiveVanished).
   */
  deleteMessagesOfSource(sourceId: number, keep: Set<string>, onlySessions?: Set<number>): number {
    let deleted = 0;
    for (const m of this.s.messagesOfSource.all(sourceId)) {
      if (onlySessions && !onlySessions.has(m.sessionId)) continue;
      if (keep.has(`${m.sessionId}\u0000${m.key}`)) continue;
      this.blocks.deleteOf(m.sessionId, m.id);
      this.s.deleteMessage.run(m.id);
      this.lookup.deleted(m.sessionId, m.key);
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
      this.lookup.archivedBut(id, keep);
    }
    return archived;
  }

  /**
   * Recomputes counts, time range, models, token totals and statistics of every session touched so far.
   * `wholeCalls`: the added-up tool-call statistics of sessions the caller saw every call of in this file.
   */
  refreshTouchedSessions(wholeCalls?: ReadonlyMap<number, CallStats>): void {
    for (const id of this.history.resequenceUnordered()) {
      this.lookup.resequenced(id);
      this.appended.changedSession(id);
    }
    for (const id of this.touchedSessions) this.s.refreshSession.run({ id });
    const known = this.appended.takeKnown(this.touchedSessions, (id) => this.holdsAllMessagesOf(id), wholeCalls);
    refreshSessionStats(this.db, this.touchedSessions, known);
    this.afterRefresh?.(this.touchedSessions);
    this.touchedSessions.clear();
  }

  linkParents(): void {
    this.s.linkParents.run();
  }
}
