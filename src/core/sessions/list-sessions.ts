// Owns the basic session listing (newest first, with filters) and store-wide statistics.
import type { Database } from 'better-sqlite3';
import type { AgentName } from '../../shared/model.js';

export interface SessionFilter {
  project?: string;
  agent?: AgentName[];
  since?: string;
  until?: string;
  limit?: number;
  includeArchived?: boolean;
}

export interface SessionSummary {
  id: string;
  agent: string;
  project: string | null;
  title: string | null;
  startedAt: string | null;
  endedAt: string | null;
  messages: number;
  prompts: number;
  parentId: string | null;
  relation: string | null;
  archived: boolean;
  models: string[];
}

export function sessionWhere(filter: SessionFilter, alias = 's'): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.project) {
    clauses.push(`(${alias}.project = ? OR ${alias}.project LIKE ? ESCAPE '\\')`);
    params.push(filter.project, `%${filter.project.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
  }
  if (filter.agent && filter.agent.length > 0) {
    clauses.push(`${alias}.agent IN (${filter.agent.map(() => '?').join(',')})`);
    params.push(...filter.agent);
  }
  if (filter.since) {
    clauses.push(`COALESCE(${alias}.ended_at, ${alias}.started_at) >= ?`);
    params.push(filter.since);
  }
  if (filter.until) {
    clauses.push(`${alias}.started_at <= ?`);
    params.push(filter.until);
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

interface SessionRow {
  external_id: string;
  agent: string;
  project: string | null;
  title: string | null;
  started_at: string | null;
  ended_at: string | null;
  message_count: number;
  prompt_count: number;
  parent_external_id: string | null;
  relation: string | null;
  archived: number;
  models: string;
}

export function listSessions(db: Database, filter: SessionFilter = {}): SessionSummary[] {
  const where = sessionWhere(filter);
  const limit = filter.limit && filter.limit > 0 ? `LIMIT ${Math.floor(filter.limit)}` : '';
  const rows = db
    .prepare(`SELECT * FROM sessions s ${where.sql} ORDER BY COALESCE(s.started_at, '') DESC, s.id DESC ${limit}`)
    .all(...where.params) as SessionRow[];
  return rows.map((r) => ({
    id: r.external_id,
    agent: r.agent,
    project: r.project,
    title: r.title,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    messages: r.message_count,
    prompts: r.prompt_count,
    parentId: r.parent_external_id,
    relation: r.relation,
    archived: r.archived === 1,
    models: JSON.parse(r.models) as string[],
  }));
}

export interface StoreStats {
  path: string;
  schemaVersion: number;
  bytes: number;
  sources: number;
  sourcesMissing: number;
  sessions: number;
  archivedSessions: number;
  messages: number;
  prompts: number;
  blocks: number;
  toolCalls: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
  byAgent: { agent: string; sessions: number; messages: number; first: string | null; last: string | null }[];
}

export function storeStats(db: Database, path: string, schemaVersion: number, bytes: number): StoreStats {
  const one = <T>(sql: string) => db.prepare(sql).get() as T;
  const t = one<{ i: number; o: number; r: number; w: number; n: number; p: number; a: number }>(
    'SELECT COALESCE(SUM(input_tokens),0) i, COALESCE(SUM(output_tokens),0) o, COALESCE(SUM(cache_read_tokens),0) r, COALESCE(SUM(cache_write_tokens),0) w, COUNT(*) n, COALESCE(SUM(prompt_count),0) p, COALESCE(SUM(archived),0) a FROM sessions',
  );
  return {
    path,
    schemaVersion,
    bytes,
    sources: one<{ n: number }>('SELECT COUNT(*) n FROM sources').n,
    sourcesMissing: one<{ n: number }>("SELECT COUNT(*) n FROM sources WHERE status = 'missing'").n,
    sessions: t.n,
    archivedSessions: t.a,
    messages: one<{ n: number }>('SELECT COUNT(*) n FROM messages').n,
    prompts: t.p,
    blocks: one<{ n: number }>('SELECT COUNT(*) n FROM blocks').n,
    toolCalls: one<{ n: number }>("SELECT COUNT(*) n FROM blocks WHERE kind = 'tool_call'").n,
    tokens: { input: t.i, output: t.o, cacheRead: t.r, cacheWrite: t.w },
    byAgent: db
      .prepare('SELECT agent, COUNT(*) sessions, SUM(message_count) messages, MIN(started_at) first, MAX(ended_at) last FROM sessions GROUP BY agent ORDER BY agent')
      .all() as StoreStats['byAgent'],
  };
}
