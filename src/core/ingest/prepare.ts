// Owns turning parsed output into what the store writes, redacted in the same pass: the one place
// redaction happens. Pure (no store), so line batches can be prepared in the ingest worker thread.
import type { Block, ParseOutput, ParsedMessage, ParsedSession } from '../../shared/model.js';
import { prepareMessage, type PreparedMessage, type Redaction } from '../../store/prepared-message.js';
import { redactValue, type Redactor } from './redact.js';
import { addCall, emptyCallStats, type CallStats } from '../../shared/tool-calls/call-stats.js';
import { storedCallInput } from '../../store/session-stats.js';

function redactBlock(block: Block, redactor: Redactor): Block {
  const out: Block = { ...block, text: redactor.redact(block.text) };
  if (block.toolInput !== undefined) out.toolInput = redactValue(block.toolInput, redactor);
  if (block.meta !== undefined) out.meta = redactValue(block.meta, redactor);
  return out;
}

export function redactMessage(message: ParsedMessage, redactor: Redactor): ParsedMessage {
  const out: ParsedMessage = { ...message, blocks: message.blocks.map((b) => redactBlock(b, redactor)) };
  if (message.meta !== undefined) out.meta = redactValue(message.meta, redactor);
  return out;
}

export function redactSession(session: ParsedSession, redactor: Redactor): ParsedSession {
  const out: ParsedSession = { ...session };
  // Found in the session's own fields (title, metadata), not in a message.
  redactor.at({ session: session.key, message: '', line: 0 });
  if (session.title !== undefined) out.title = redactor.redact(session.title);
  if (session.meta !== undefined) out.meta = redactValue(session.meta, redactor);
  redactor.at(undefined);
  return out;
}

/** A line-source parse output, redacted and turned into column values (merge mode). */
export interface PreparedOutput extends Omit<ParseOutput, 'messages' | 'sessions'> {
  sessions: ParsedSession[];
  messages: PreparedMessage[];
  /** Per session key: what its tool calls in this output add to its statistics (see store/session-stats.ts). */
  callStats: [string, CallStats][];
}

/**
 * Counts a message's tool calls, per session, as `computeOwnStats` would count them once stored: with the
 * input as stored. Unless redaction changed the message, that is the parsed input itself (no second parse).
 */
function countCalls(
  callStats: Map<string, CallStats>,
  message: ParsedMessage,
  prepared: PreparedMessage,
  redacted: boolean,
): void {
  message.blocks.forEach((block, i) => {
    if (block.kind !== 'tool_call') return;
    let stats = callStats.get(message.sessionKey);
    if (!stats) callStats.set(message.sessionKey, (stats = emptyCallStats()));
    const stored = prepared.blocks[i]!;
    const input =
      block.toolInput == null || redacted
        ? storedCallInput(stored.toolInput as string | null, stored.text as string)
        : block.toolInput;
    addCall(stats, stored.toolName, input);
  });
}

/**
 * Redacts and prepares a merge-mode output; pure (no store), so it can run in a worker thread. `packed`:
 * its texts will be packed as UTF-8 before they are written (see prepareMessage).
 */
export function prepareMergeOutput(output: ParseOutput, redactor: Redactor, packed = false): PreparedOutput {
  const { sessions, messages, ...rest } = output;
  const redaction: Redaction = {
    text: (value) => redactor.redact(value),
    value: (value) => redactValue(value, redactor),
  };
  const callStats = new Map<string, CallStats>();
  const prepared = messages.map((m) => {
    redactor.at({ session: m.sessionKey, message: m.key, line: m.line });
    const before = redactor.count;
    const p = prepareMessage(m, 'merge', redaction, packed);
    countCalls(callStats, m, p, redactor.count !== before);
    return p;
  });
  redactor.at(undefined);
  return {
    ...rest,
    sessions: sessions.map((s) => redactSession(s, redactor)),
    messages: prepared,
    callStats: [...callStats],
  };
}
