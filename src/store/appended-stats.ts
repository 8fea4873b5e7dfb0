// Owns noting, during one file transaction, how each session changed: only appended to (its statistics
// are then its stored row plus the appended blocks, see session-stats.ts) or otherwise (computed whole).
import type { CallStats } from '../shared/tool-calls/call-stats.js';
import type { AppendedFrom, KnownStats } from './session-stats.js';

/** No row appended: nothing from here on. */
const NONE = Number.MAX_SAFE_INTEGER;

export class AppendedStats {
  private readonly from = new Map<number, AppendedFrom>();
  /** Sessions whose stored blocks changed or moved: their statistics are computed whole. */
  private readonly changed = new Set<number>();
  /** A source read again from its start: every session it touches is computed whole. */
  private rereading = false;

  private entry(sessionId: number): AppendedFrom {
    let from = this.from.get(sessionId);
    if (!from) this.from.set(sessionId, (from = { block: NONE, message: NONE }));
    return from;
  }

  /** Row ids only grow within a transaction, so the first appended is the smallest. */
  message(sessionId: number, messageId: number): void {
    const from = this.entry(sessionId);
    if (messageId < from.message) from.message = messageId;
  }

  block(sessionId: number, blockId: number): void {
    const from = this.entry(sessionId);
    if (blockId < from.block) from.block = blockId;
  }

  /** Stored blocks of the session were rewritten, deleted or reordered. */
  changedSession(sessionId: number): void {
    this.changed.add(sessionId);
  }

  reread(): void {
    this.rereading = true;
  }

  /**
   * What the statistics refresh of `sessionIds` may rely on: the caller's counts of sessions it wrote
   * whole (`wholeCalls`, those of `heldWhole`), else what each session had appended. Forgets its notes.
   */
  takeKnown(
    sessionIds: Iterable<number>,
    heldWhole: (sessionId: number) => boolean,
    wholeCalls?: ReadonlyMap<number, CallStats>,
  ): KnownStats {
    const calls = new Map<number, CallStats>();
    const appended = new Map<number, AppendedFrom>();
    for (const id of sessionIds) {
      const counted = wholeCalls?.get(id);
      if (counted && heldWhole(id)) calls.set(id, counted);
      else if (!this.rereading && !this.changed.has(id))
        appended.set(id, this.from.get(id) ?? { block: NONE, message: NONE });
    }
    this.clear();
    return { calls, appended };
  }

  clear(): void {
    this.from.clear();
    this.changed.clear();
    this.rereading = false;
  }
}
