// Owns applying one adapter ParseOutput to the store: redact, upsert sessions, write messages, and in
// replace mode archive (never delete) the messages of this source that the new parse no longer has. Line sources can
// be redacted and prepared ahead (in the ingest worker) and applied here with `applyPreparedOutput`.
import type { AgentName, Block, ParseOutput, ParsedMessage, ParsedSession } from '../../shared/model.js';
import type { SessionWriter, WriteResult } from '../../store/session-writer.js';
import { prepareMessage, type PreparedMessage, type Redaction } from '../../store/prepared-message.js';
import { redactValue, type Redactor } from './redact.js';
import { addCall, emptyCallStats, storedCallInput, type CallStats } from '../retrieval/session-stats.js';

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
  /** Per session key: what its tool calls in this output add to its statistics (see session-stats.ts). */
  callStats: [string, CallStats][];
}

/**
 * Counts a message's tool calls, per session, as `computeOwnStats` would count them once stored: with the
 * input as stored. Unless redaction changed the message, that is the parsed input itself (no second parse).
 */
function countCalls(callStats: Map<string, CallStats>, message: ParsedMessage, prepared: PreparedMessage, redacted: boolean): void {
  message.blocks.forEach((block, i) => {
    if (block.kind !== 'tool_call') return;
    let stats = callStats.get(message.sessionKey);
    if (!stats) callStats.set(message.sessionKey, (stats = emptyCallStats()));
    const stored = prepared.blocks[i]!;
    const input = block.toolInput == null || redacted ? storedCallInput(stored.toolInput as string | null, stored.text as string) : block.toolInput;
    addCall(stats, stored.toolName, input);
  });
}

/**
 * Redacts and prepares a merge-mode output; pure (no store), so it can run in a worker thread. `packed`:
 * its texts will be packed as UTF-8 before they are written (see prepareMessage).
 */
export function prepareMergeOutput(output: ParseOutput, redactor: Redactor, packed = false): PreparedOutput {
  const { sessions, messages, ...rest } = output;
  const redaction: Redaction = { text: (value) => redactor.redact(value), value: (value) => redactValue(value, redactor) };
  const callStats = new Map<string, CallStats>();
  const prepared = messages.map((m) => {
    redactor.at({ session: m.sessionKey, message: m.key, line: m.line });
    const before = redactor.count;
    const p = prepareMessage(m, 'merge', redaction, packed);
    countCalls(callStats, m, p, redactor.count !== before);
    return p;
  });
  redactor.at(undefined);
  return { ...rest, sessions: sessions.map((s) => redactSession(s, redactor)), messages: prepared, callStats: [...callStats] };
}

function sessionIdOf(writer: SessionWriter, sessionIds: Map<string, number>, agent: AgentName, key: string, sourceId: number): number {
  let sessionId = sessionIds.get(key);
  if (sessionId === undefined) {
    sessionId = writer.upsertSession(agent, { key }, sourceId);
    sessionIds.set(key, sessionId);
  }
  return sessionId;
}

/** Per session key, the newest message time of an output: how recent the title it carries is. */
function newestTimes(messages: readonly { sessionKey: string; timestamp?: string | null }[]): Map<string, string> {
  const newest = new Map<string, string>();
  for (const m of messages) {
    if (!m.timestamp) continue;
    const seen = newest.get(m.sessionKey);
    if (seen === undefined || m.timestamp > seen) newest.set(m.sessionKey, m.timestamp);
  }
  return newest;
}

/**
 * Writes a prepared (already redacted) line-source output in merge mode; returns the session ids by key.
 * `seen`, when given, collects `sessionId\u0000key` of every message written (a rewritten file's content).
 */
export function applyPreparedOutput(writer: SessionWriter, sourceId: number, agent: AgentName, output: PreparedOutput, result: WriteResult, seen?: Set<string>): Map<string, number> {
  const sessionIds = new Map<string, number>();
  const newest = newestTimes(output.messages);
  for (const session of output.sessions) sessionIds.set(session.key, writer.upsertSession(agent, { ...session, titleAt: newest.get(session.key) ?? null }, sourceId));
  for (const message of output.messages) {
    const sessionId = sessionIdOf(writer, sessionIds, agent, message.sessionKey, sourceId);
    writer.writePrepared(sessionId, sourceId, message, 'merge', result);
    seen?.add(`${sessionId}\u0000${message.key}`);
  }
  return sessionIds;
}

export function applyParseOutput(
  writer: SessionWriter,
  sourceId: number,
  agent: AgentName,
  output: ParseOutput,
  mode: 'merge' | 'replace',
  redactor: Redactor,
  result: WriteResult,
  /** Streamed replace: collect kept message keys here and leave archiving to the caller. */
  collectKeep?: Set<string>,
): void {
  const sessionIds = new Map<string, number>();
  const newest = newestTimes(output.messages);
  for (const session of output.sessions) {
    sessionIds.set(session.key, writer.upsertSession(agent, { ...redactSession(session, redactor), titleAt: newest.get(session.key) ?? null }, sourceId));
  }
  const keep = collectKeep ?? new Set<string>();
  for (const message of output.messages) {
    const sessionId = sessionIdOf(writer, sessionIds, agent, message.sessionKey, sourceId);
    redactor.at({ session: message.sessionKey, message: message.key, line: message.line });
    writer.writeMessage(sessionId, sourceId, redactMessage(message, redactor), mode, result);
    redactor.at(undefined);
    keep.add(`${sessionId}\u0000${message.key}`);
  }
  if (mode === 'replace' && !collectKeep) {
    const only = output.partial ? new Set(sessionIds.values()) : undefined;
    result.messagesArchived = (result.messagesArchived ?? 0) + writer.archiveVanished(sourceId, keep, only);
  }
}
