// Owns writing one team-store session into a local store file, so `read --remote` runs the local read
// code on it and prints what a local read prints.
import type { Database } from 'better-sqlite3';

export interface TeamSessionRow {
  agent: string;
  external_id: string;
  project: string | null;
  title: string | null;
  started_at: string | null;
  ended_at: string | null;
  models: string;
  parent_external_id: string | null;
}

export interface TeamMessageRow {
  key: string;
  position: number;
  role: string;
  kind: string;
  timestamp: string | null;
  model: string | null;
  archived: boolean;
}

export interface TeamBlockRow {
  message_key: string;
  idx: number;
  kind: string;
  field: string;
  noise: string | null;
  text: string;
  tool_name: string | null;
  tool_call_id: string | null;
  tool_input: string | null;
  is_error: boolean;
  meta: string | null;
}

/** `children`: the session's subagent sessions, written as headings only (read names them). */
export function writeTeamSession(
  db: Database,
  session: TeamSessionRow,
  messages: TeamMessageRow[],
  blocks: TeamBlockRow[],
  children: TeamSessionRow[] = [],
): void {
  db.transaction(() => {
    const sessionId = db
      .prepare(
        `INSERT INTO sessions (agent, external_id, project, title, started_at, ended_at, models, parent_external_id,
           updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        session.agent,
        session.external_id,
        session.project,
        session.title,
        session.started_at,
        session.ended_at,
        session.models,
        session.parent_external_id,
        new Date().toISOString(),
      ).lastInsertRowid;
    const child = db.prepare(
      `INSERT INTO sessions (agent, external_id, title, started_at, parent_external_id, parent_id, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const c of children) {
      child.run(
        c.agent,
        c.external_id,
        c.title,
        c.started_at,
        session.external_id,
        sessionId,
        new Date().toISOString(),
      );
    }
    const insertMessage = db.prepare(
      `INSERT INTO messages (session_id, key, seq, role, kind, timestamp, model, line, archived)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    );
    const ids = new Map<string, number | bigint>();
    for (const m of messages) {
      const r = insertMessage.run(
        sessionId,
        m.key,
        m.position,
        m.role,
        m.kind,
        m.timestamp,
        m.model,
        m.archived ? 1 : 0,
      );
      ids.set(m.key, r.lastInsertRowid);
    }
    const insertBlock = db.prepare(
      `INSERT INTO blocks (message_id, idx, kind, field, text, tool_name, tool_call_id, tool_input, is_error, noise,
         meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const b of blocks) {
      const messageId = ids.get(b.message_key);
      if (messageId === undefined) continue;
      insertBlock.run(
        messageId,
        b.idx,
        b.kind,
        b.field,
        b.text,
        b.tool_name,
        b.tool_call_id,
        b.tool_input,
        b.is_error ? 1 : 0,
        b.noise,
        b.meta,
      );
    }
  })();
}
