// Owns writing and deleting the blocks of a message: their full-text rows (through the FTS batcher), the
// tool names of results (a result stored before its call waits in unnamed_results until the call arrives),
// and the note of what each session had appended (see appended-stats.ts).
import { indexedText, type PreparedBlock } from './prepared-message.js';
import type { FtsBatcher } from './fts-batcher.js';
import type { AppendedStats } from './appended-stats.js';
import type { WriterStatements } from './writer-statements.js';
import { STRATA_NOISE, isStrataToolName } from '../shared/strata-echo.js';

export class BlockWriter {
  constructor(
    private readonly s: WriterStatements,
    private readonly batcher: FtsBatcher,
    private readonly appended: AppendedStats,
  ) {}

  /** Inserts `blocks` into a message from index `startIdx` on; returns how many. */
  insert(sessionId: number, messageId: number, blocks: PreparedBlock[], startIdx: number): number {
    let idx = startIdx;
    const { insertBlock, callName } = this.s;
    for (const block of blocks) {
      let toolName = block.toolName;
      if (toolName === null && block.kind === 'tool_result' && block.toolCallId !== null)
        toolName = callName.get(sessionId, block.toolCallId) ?? null;
      // A result named only here (its call was stored earlier) is strata's when its call is.
      const noise = block.noise ?? (block.kind === 'tool_result' && isStrataToolName(toolName) ? STRATA_NOISE : null);
      const blockId = Number(
        insertBlock.run(
          messageId,
          idx++,
          block.kind,
          block.field,
          block.text,
          toolName,
          block.toolCallId,
          block.toolInput,
          block.isError,
          noise,
          block.meta,
        ).lastInsertRowid,
      );
      this.appended.block(sessionId, blockId);
      if (block.text.length > 0) this.batcher.index(blockId, indexedText(block));
      if (block.toolCallId === null) continue;
      if (block.kind === 'tool_result' && toolName === null)
        this.s.waitForCall.run(sessionId, block.toolCallId, blockId);
      else if (block.kind === 'tool_call' && toolName !== null)
        this.nameWaitingResults(sessionId, block.toolCallId, toolName);
    }
    return blocks.length;
  }

  private nameWaitingResults(sessionId: number, callId: string, toolName: string): void {
    const waiting = this.s.waitingFor.all(sessionId, callId);
    if (waiting.length === 0) return;
    const noise = isStrataToolName(toolName) ? STRATA_NOISE : null;
    for (const id of waiting) this.s.nameResult.run(toolName, noise, id);
    this.s.namedResults.run(sessionId, callId);
  }

  deleteOf(sessionId: number, messageId: number): void {
    this.appended.changedSession(sessionId);
    this.batcher.unindex(this.s.blockIdsOfMessage.all(messageId));
    this.s.deleteBlocks.run(messageId);
  }

  /** Deletes single blocks (those a re-read message no longer holds). */
  deleteBlocks(ids: number[]): void {
    this.batcher.unindex(ids);
    for (const id of ids) this.s.deleteBlock.run(id);
  }
}
