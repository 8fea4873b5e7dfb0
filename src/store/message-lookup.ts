// Owns finding where a message stands within its session during one file transaction: the next sequence
// number, and the stored row of a key, kept in memory for a session new to the store (no query per message).
import type { StoredMessage, WriterStatements } from './writer-statements.js';

/** Message keys a file transaction keeps in memory for sessions new to the store (see find). */
const FRESH_KEYS_MAX = 20_000;

export class MessageLookup {
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

  constructor(private readonly s: WriterStatements) {}

  private lastSeq(sessionId: number): number {
    let seq = this.nextSeq.get(sessionId);
    if (seq === undefined) {
      seq = this.s.maxSeq.get(sessionId) ?? 0;
      this.nextSeq.set(sessionId, seq);
    }
    return seq;
  }

  allocSeq(sessionId: number): number {
    const seq = this.lastSeq(sessionId) + 1;
    this.nextSeq.set(sessionId, seq);
    return seq;
  }

  /** The session's messages were renumbered: its next sequence number is read again. */
  resequenced(sessionId: number): void {
    this.nextSeq.delete(sessionId);
  }

  /**
   * True when every message of the session was written by the open file transaction: it had none when
   * the transaction first wrote to it (and the transaction still tracks its keys).
   */
  holdsAll(sessionId: number): boolean {
    return this.freshSessions.has(sessionId);
  }

  /** The stored message with this key, if any (no query for a session that was empty at the start of the file). */
  find(sessionId: number, key: string): StoredMessage | undefined {
    if (!this.txSessions.has(sessionId)) {
      this.txSessions.add(sessionId);
      if (this.freshKeys < FRESH_KEYS_MAX && this.lastSeq(sessionId) === 0)
        this.freshSessions.set(sessionId, new Map());
    }
    const fresh = this.freshSessions.get(sessionId);
    if (fresh) return fresh.get(key);
    return this.s.findMessage.get(sessionId, key);
  }

  inserted(sessionId: number, key: string, message: StoredMessage): void {
    const fresh = this.freshSessions.get(sessionId);
    if (!fresh) return;
    fresh.set(key, message);
    // A huge file (a streamed Puffin history is one transaction) stops keeping keys: lookups instead.
    if (++this.freshKeys >= FRESH_KEYS_MAX) this.freshSessions.clear();
  }

  deleted(sessionId: number, key: string): void {
    this.freshSessions.get(sessionId)?.delete(key);
  }

  /** Marks archived the kept keys of a session but those in `keep` (`sessionId\u0000key`). */
  archivedBut(sessionId: number, keep: Set<string>): void {
    const fresh = this.freshSessions.get(sessionId);
    if (fresh) for (const [key, entry] of fresh) if (!keep.has(`${sessionId}\u0000${key}`)) entry.archived = 1;
  }

  /** Ends a file transaction; a rollback also forgets the sequence numbers it allocated. */
  settleFile(committed: boolean): void {
    if (!committed) this.nextSeq.clear();
    this.freshSessions.clear();
    this.txSessions.clear();
    this.freshKeys = 0;
  }
}
