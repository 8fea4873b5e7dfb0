// Owns the rules that keep a re-ingest from deleting or doubling stored messages (schema 9):
// - a block appended to an existing message is skipped when the message already holds an equal one, so the
//   same transcript read under two paths, or a rewritten file read again, adds nothing twice;
// - a message a re-read source changed keeps its old blocks as a version (message_versions), unless the
//   new content holds them all; an older copy from another file (a backup) changes nothing;
// - messages of a source that its new content no longer has are archived, never deleted;
// - a session that received messages older than its newest stored one is renumbered by time.
import type { Database, Statement } from 'better-sqlite3';
import type { PreparedBlock } from './prepared-message.js';

/** A stored block as compared and saved here. */
interface StoredBlock {
  id: number;
  idx: number;
  kind: string;
  field: string;
  text: string;
  tool_name: string | null;
  tool_call_id: string | null;
  tool_input: string | null;
  is_error: number;
  noise: string | null;
  meta: string | null;
}

const decoder = new TextDecoder();

/** A column value as a string (the ingest worker hands texts over as UTF-8 bytes). */
function asString(value: string | Uint8Array): string {
  return typeof value === 'string' ? value : decoder.decode(value);
}

function sameBlock(stored: StoredBlock, block: PreparedBlock): boolean {
  return (
    stored.kind === block.kind &&
    stored.field === block.field &&
    stored.tool_call_id === block.toolCallId &&
    stored.text === asString(block.text)
  );
}

/** How many of `items` find no partner among `pool` (each partner matches once). */
function unmatchedCount<A, B>(items: A[], pool: B[], same: (a: A, b: B) => boolean): number {
  const left = [...pool];
  let unmatched = 0;
  for (const item of items) {
    const at = left.findIndex((candidate) => same(item, candidate));
    if (at < 0) unmatched++;
    else left.splice(at, 1);
  }
  return unmatched;
}

interface HistoryStatements {
  blocksOf: Statement<[messageId: number], StoredBlock>;
  saveVersion: Statement<
    [messageId: number, sourceId: number, supersededAt: string, contentHash: string | null, blocks: string]
  >;
  unarchive: Statement<[messageId: number]>;
  messagesOfSource: Statement<[sourceId: number], { id: number; sessionId: number; key: string }>;
  archive: Statement<[messageId: number]>;
  archiveEmptySession: Statement<[sessionId: number, sameSessionId: number]>;
  lastTime: Statement<[sessionId: number], string>;
  otherSources: Statement<[sessionId: number, sourceId: number], number>;
  resequence: Statement<[{ id: number }]>;
}

function prepareHistoryStatements(db: Database): HistoryStatements {
  return {
    blocksOf: db.prepare(
      'SELECT id, idx, kind, field, text, tool_name, tool_call_id, tool_input, is_error, noise, meta FROM blocks ' +
        'WHERE message_id = ? ORDER BY idx',
    ),
    saveVersion: db.prepare(
      'INSERT INTO message_versions (message_id, source_id, superseded_at, content_hash, blocks) VALUES (?, ?, ?, ?, ' +
        '?)',
    ),
    unarchive: db.prepare('UPDATE messages SET archived = 0 WHERE id = ?'),
    messagesOfSource: db.prepare(
      'SELECT id, session_id AS sessionId, key FROM messages WHERE source_id = ? AND archived = 0',
    ),
    archive: db.prepare('UPDATE messages SET archived = 1 WHERE id = ?'),
    archiveEmptySession: db.prepare(
      'UPDATE sessions SET archived = 1 WHERE id = ? AND archived = 0 AND NOT EXISTS (SELECT 1 FROM messages WHERE ' +
        'session_id = ? AND archived = 0)',
    ),
    // The newest time near the end of the session (its messages are numbered by time once mixed).
    lastTime: db
      .prepare<[number], string>(
        'SELECT timestamp FROM messages WHERE session_id = ? AND timestamp IS NOT NULL ORDER BY seq DESC LIMIT 1',
      )
      .pluck(),
    otherSources: db
      .prepare<[number, number], number>('SELECT COUNT(*) FROM session_sources WHERE session_id = ? AND source_id != ?')
      .pluck(),
    // A message without a time keeps its place after the message before it from the same file.
    resequence: db.prepare(`WITH ordered AS (
        SELECT id, ROW_NUMBER() OVER (ORDER BY effective, seq, id) AS n FROM (
          SELECT id, seq, COALESCE(timestamp, MAX(timestamp) OVER (PARTITION BY source_id ORDER BY seq, id ROWS
            UNBOUNDED PRECEDING), '') AS effective
          FROM messages WHERE session_id = @id))
      UPDATE messages SET seq = ordered.n FROM ordered WHERE messages.id = ordered.id AND messages.seq != ordered.n`),
  };
}

export class MessageHistory {
  private readonly q: HistoryStatements;
  /**
   * While a rewritten line source is read again: per message it touches, its blocks as they were and the
   * ids of those the new content has not matched yet (see finishRewrite).
   */
  private rewriting: Map<number, { before: StoredBlock[]; unmatched: Set<number> }> | undefined;
  /** Per session written in the open file transaction: its newest message time, or null when it needs no check. */
  private readonly orderCheck = new Map<number, string | null>();
  /** Sessions that received a message older than their newest from another source: renumbered at refresh. */
  private readonly unordered = new Set<number>();

  constructor(db: Database) {
    this.q = prepareHistoryStatements(db);
  }

  /**
   * The blocks of `incoming` not already held by the stored message (each stored block matches at most one
   * incoming block), and the index the first of them gets.
   */
  newBlocks(messageId: number, incoming: PreparedBlock[]): { blocks: PreparedBlock[]; nextIdx: number } {
    const stored = this.q.blocksOf.all(messageId);
    let tracked = this.rewriting?.get(messageId);
    if (this.rewriting && !tracked)
      this.rewriting.set(messageId, (tracked = { before: stored, unmatched: new Set(stored.map((b) => b.id)) }));
    const nextIdx = stored.length === 0 ? 0 : stored[stored.length - 1]!.idx + 1;
    if (stored.length === 0) return { blocks: incoming, nextIdx };
    const unmatched = [...stored];
    const blocks = incoming.filter((block) => {
      const at = unmatched.findIndex((s) => sameBlock(s, block));
      if (at < 0) return true;
      tracked?.unmatched.delete(unmatched[at]!.id);
      unmatched.splice(at, 1);
      return false;
    });
    return { blocks, nextIdx };
  }

  /** A rewritten line source is read again from its start: track what its messages still hold. */
  beginRewrite(): void {
    this.rewriting = new Map();
  }

  /**
   * After a rewritten source was read again: each message it touched that lost blocks is saved as a
   * version, then `remove` drops the lost blocks (the new content holds the rest). Returns how many changed.
   */
  finishRewrite(sourceId: number, remove: (blockIds: number[]) => void): number {
    const rewriting = this.rewriting;
    this.rewriting = undefined;
    let changed = 0;
    for (const [messageId, { before, unmatched }] of rewriting ?? []) {
      if (unmatched.size === 0) continue;
      this.q.saveVersion.run(messageId, sourceId, new Date().toISOString(), null, JSON.stringify(before));
      remove([...unmatched]);
      changed++;
    }
    return changed;
  }

  /**
   * Whether a re-parse that changed a message rewrites it. A copy from another file holding no block the
   * stored message lacks (an older backup of a message that grew since) changes nothing. Before a rewrite
   * the stored blocks are saved as a version unless the new ones hold them all (a message that only grew).
   */
  beforeRewrite(
    messageId: number,
    storedSource: number | null,
    sourceId: number,
    oldHash: string | null,
    incoming: PreparedBlock[],
  ): boolean {
    const stored = this.q.blocksOf.all(messageId);
    if (storedSource !== sourceId && unmatchedCount(incoming, stored, (b, s) => sameBlock(s, b)) === 0) return false;
    if (stored.length > 0 && unmatchedCount(stored, incoming, sameBlock) > 0) {
      this.q.saveVersion.run(messageId, sourceId, new Date().toISOString(), oldHash, JSON.stringify(stored));
    }
    return true;
  }

  unarchive(messageId: number): void {
    this.q.unarchive.run(messageId);
  }

  /**
   * Archives the messages this source stored that its new content no longer has (`keep` holds
   * `sessionId\u0000key` of those it has), optionally only in `onlySessions`; a session left with no
   * current message is archived too. Returns the sessions touched and how many messages were archived.
   */
  archiveVanished(
    sourceId: number,
    keep: Set<string>,
    onlySessions?: Set<number>,
  ): { sessions: Set<number>; archived: number } {
    const sessions = new Set<number>();
    let archived = 0;
    for (const m of this.q.messagesOfSource.all(sourceId)) {
      if (onlySessions && !onlySessions.has(m.sessionId)) continue;
      if (keep.has(`${m.sessionId}\u0000${m.key}`)) continue;
      this.q.archive.run(m.id);
      sessions.add(m.sessionId);
      archived++;
    }
    for (const id of sessions) this.q.archiveEmptySession.run(id, id);
    return { sessions, archived };
  }

  /**
   * Before a message is inserted into a session that held messages: notes the session for renumbering when
   * the message is older than its newest and the session has another source (one session saved in two
   * files). A single file's own order is kept as written.
   */
  checkOrder(sessionId: number, sourceId: number, timestamp: string | null): void {
    let last = this.orderCheck.get(sessionId);
    if (last === undefined) {
      const mixed = (this.q.otherSources.get(sessionId, sourceId) ?? 0) > 0;
      last = mixed ? (this.q.lastTime.get(sessionId) ?? '') : null;
      this.orderCheck.set(sessionId, last);
    }
    if (last === null || timestamp === null) return;
    if (timestamp < last) this.unordered.add(sessionId);
    else this.orderCheck.set(sessionId, timestamp);
  }

  /** Renumbers by their messages' own times (stable for equal or missing times) the sessions noted; returns them. */
  resequenceUnordered(): number[] {
    const ids = [...this.unordered];
    for (const id of ids) this.q.resequence.run({ id });
    this.unordered.clear();
    return ids;
  }

  /** Ends a file transaction's bookkeeping (a rollback forgets what it noted). */
  settleFile(committed: boolean): void {
    this.orderCheck.clear();
    if (!committed) this.unordered.clear();
    this.rewriting = undefined;
  }
}
