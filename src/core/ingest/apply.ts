// Owns applying one adapter ParseOutput to the store: upsert sessions, write messages, and in replace
// mode archive (never delete) the messages of this source that the new parse no longer has. Line batches
// arrive prepared (see prepare.ts) and are applied with `applyPreparedOutput`.
import type { AgentName, ParseOutput } from '../../shared/model.js';
import type { SessionWriter, WriteResult } from '../../store/session-writer.js';
import type { Redactor } from './redact.js';
import { redactMessage, redactSession, type PreparedOutput } from './prepare.js';

function sessionIdOf(
  writer: SessionWriter,
  sessionIds: Map<string, number>,
  agent: AgentName,
  key: string,
  sourceId: number,
): number {
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
export function applyPreparedOutput(
  writer: SessionWriter,
  sourceId: number,
  agent: AgentName,
  output: PreparedOutput,
  result: WriteResult,
  seen?: Set<string>,
): Map<string, number> {
  const sessionIds = new Map<string, number>();
  const newest = newestTimes(output.messages);
  for (const session of output.sessions)
    sessionIds.set(
      session.key,
      writer.upsertSession(agent, { ...session, titleAt: newest.get(session.key) ?? null }, sourceId),
    );
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
    sessionIds.set(
      session.key,
      writer.upsertSession(
        agent,
        { ...redactSession(session, redactor), titleAt: newest.get(session.key) ?? null },
        sourceId,
      ),
    );
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
