// Owns applying one adapter ParseOutput to the store: redact, upsert sessions, write messages, and in
// replace mode delete the messages of this source that the new parse no longer has.
import type { AgentName, Block, ParseOutput, ParsedMessage, ParsedSession } from '../../shared/model.js';
import type { SessionWriter, WriteResult } from '../../store/session-writer.js';
import { redactValue, type Redactor } from './redact.js';

function redactBlock(block: Block, redactor: Redactor): Block {
  const out: Block = { ...block, text: redactor.redact(block.text) };
  if (block.toolInput !== undefined) out.toolInput = redactValue(block.toolInput, redactor);
  if (block.meta !== undefined) out.meta = redactValue(block.meta, redactor);
  return out;
}

function redactMessage(message: ParsedMessage, redactor: Redactor): ParsedMessage {
  const out: ParsedMessage = { ...message, blocks: message.blocks.map((b) => redactBlock(b, redactor)) };
  if (message.meta !== undefined) out.meta = redactValue(message.meta, redactor);
  return out;
}

function redactSession(session: ParsedSession, redactor: Redactor): ParsedSession {
  const out: ParsedSession = { ...session };
  if (session.title !== undefined) out.title = redactor.redact(session.title);
  if (session.meta !== undefined) out.meta = redactValue(session.meta, redactor);
  return out;
}

export function applyParseOutput(
  writer: SessionWriter,
  sourceId: number,
  agent: AgentName,
  output: ParseOutput,
  mode: 'merge' | 'replace',
  redactor: Redactor,
  result: WriteResult,
  /** Streamed replace: collect kept message keys here and leave deletion to the caller. */
  collectKeep?: Set<string>,
): void {
  const sessionIds = new Map<string, number>();
  for (const session of output.sessions) {
    sessionIds.set(session.key, writer.upsertSession(agent, redactSession(session, redactor), sourceId));
  }
  const keep = collectKeep ?? new Set<string>();
  for (const message of output.messages) {
    let sessionId = sessionIds.get(message.sessionKey);
    if (sessionId === undefined) {
      sessionId = writer.upsertSession(agent, { key: message.sessionKey }, sourceId);
      sessionIds.set(message.sessionKey, sessionId);
    }
    writer.writeMessage(sessionId, sourceId, redactMessage(message, redactor), mode, result);
    keep.add(`${sessionId}\u0000${message.key}`);
  }
  if (mode === 'replace' && !collectKeep) {
    const only = output.partial ? new Set(sessionIds.values()) : undefined;
    writer.deleteMessagesOfSource(sourceId, keep, only);
  }
}
