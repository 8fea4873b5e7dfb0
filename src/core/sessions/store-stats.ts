// Owns `strata stats`' numbers: what the store holds, in total and per agent.
import type { Database } from 'better-sqlite3';

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
    `SELECT COALESCE(SUM(input_tokens),0) i, COALESCE(SUM(output_tokens),0) o, COALESCE(SUM(cache_read_tokens),0) r,
       COALESCE(SUM(cache_write_tokens),0) w, COUNT(*) n, COALESCE(SUM(prompt_count),0) p, COALESCE(SUM(archived),0) a
     FROM sessions`,
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
      .prepare(
        `SELECT agent, COUNT(*) sessions, SUM(message_count) messages, MIN(started_at) first, MAX(ended_at) last
         FROM sessions GROUP BY agent ORDER BY agent`,
      )
      .all() as StoreStats['byAgent'],
  };
}
