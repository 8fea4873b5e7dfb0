// Owns what a push reads from the local store: each session's heading and fingerprint, and one
// session's messages and blocks in the order `strata read` numbers them.
import type { Database } from 'better-sqlite3';

export interface LocalSession {
  id: number;
  agent: string;
  externalId: string;
  project: string | null;
  title: string | null;
  startedAt: string | null;
  endedAt: string | null;
  parentExternalId: string | null;
  models: string;
  messages: number;
  userMessages: number;
  /** Changes whenever a message, block, archive mark or the heading changes (what a push compares). */
  fingerprint: string;
}

export interface LocalMessage {
  key: string;
  position: number;
  role: string;
  kind: string;
  timestamp: string | null;
  model: string | null;
  archived: boolean;
}

export interface LocalBlock {
  messageKey: string;
  idx: number;
  field: string;
  kind: string;
  noise: string | null;
  text: string;
  toolName: string | null;
  toolCallId: string | null;
  toolInput: string | null;
  isError: number;
  meta: string | null;
}

export function localSessions(db: Database): LocalSession[] {
  const rows = db
    .prepare(
      `SELECT s.id, s.agent, s.external_id AS externalId, s.project, s.title,
        s.started_at AS startedAt, s.ended_at AS endedAt, s.parent_external_id AS parentExternalId, s.models,
        COALESCE(s.prompt_count, 0) AS userMessages,
        (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS messages,
        (SELECT count(*) || ':' || COALESCE(max(m.id), 0) || ':' || COALESCE(sum(m.archived), 0)
           || ':' || COALESCE(max(m.seq), 0) FROM messages m WHERE m.session_id = s.id) AS m,
        (SELECT COALESCE(max(b.id), 0) || ':' || count(*) FROM messages m JOIN blocks b ON b.message_id = m.id
           WHERE m.session_id = s.id) AS b
       FROM sessions s
       ORDER BY s.id`,
    )
    .all() as (Omit<LocalSession, 'fingerprint'> & { m: string; b: string })[];
  return rows.map(({ m, b, ...s }) => ({
    ...s,
    fingerprint: [m, b, s.title ?? '', s.endedAt ?? '', s.project ?? ''].join('|'),
  }));
}

export function localMessages(db: Database, sessionId: number): LocalMessage[] {
  return (
    db
      .prepare(
        `SELECT key, row_number() OVER (ORDER BY seq, id) AS position, role, kind, timestamp, model, archived
         FROM messages WHERE session_id = ? ORDER BY seq, id`,
      )
      .all(sessionId) as (Omit<LocalMessage, 'archived'> & { archived: number })[]
  ).map((m) => ({ ...m, archived: m.archived !== 0 }));
}

export function localBlocks(db: Database, sessionId: number): LocalBlock[] {
  return db
    .prepare(
      `SELECT m.key AS messageKey, b.idx, b.kind, b.field, b.noise, b.text, b.tool_name AS toolName,
         b.tool_call_id AS toolCallId, b.tool_input AS toolInput, b.is_error AS isError, b.meta
       FROM messages m JOIN blocks b ON b.message_id = m.id WHERE m.session_id = ? ORDER BY m.seq, b.idx`,
    )
    .all(sessionId) as LocalBlock[];
}
