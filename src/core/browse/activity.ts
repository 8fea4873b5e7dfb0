// Owns the Activity page's aggregates: sessions, messages, tool calls and tokens per day, per project and
// per agent. Messages and tool calls count on the day of their own timestamp; a session and its tokens on
// the day it started (token usage is recorded per reply without a time of its own). Cost is estimated at
// list prices (prices.ts) for models with a known price; other models' tokens are counted as unpriced.
import type { Database } from 'better-sqlite3';
import { sessionWhere, type SessionFilter } from '../sessions/session-filter.js';
import { estimatedCost } from './prices.js';

export interface ActivityCounts {
  key: string;
  sessions: number;
  messages: number;
  toolCalls: number;
  tokens: number;
  /** Estimated USD for the tokens of models with a known price. */
  cost: number;
  /** Tokens of models without a known price (not in `cost`). */
  unpricedTokens: number;
}

export interface Activity {
  byDay: ActivityCounts[];
  byProject: ActivityCounts[];
  byAgent: ActivityCounts[];
  totals: Omit<ActivityCounts, 'key'>;
}

interface SessionRow {
  id: number;
  agent: string;
  project: string | null;
  day: string | null;
  tokens: number;
}

const empty = (key: string): ActivityCounts => ({
  key,
  sessions: 0,
  messages: 0,
  toolCalls: 0,
  tokens: 0,
  cost: 0,
  unpricedTokens: 0,
});

function bump(
  map: Map<string, ActivityCounts>,
  key: string,
  field: Exclude<keyof ActivityCounts, 'key'>,
  n: number,
): void {
  let row = map.get(key);
  if (!row) map.set(key, (row = empty(key)));
  row[field] += n;
}

/** Activity of the sessions the filter selects (subagent sessions count as sessions of their own). */
export function activity(db: Database, filter: Omit<SessionFilter, 'limit'> = {}): Activity {
  const where = sessionWhere(filter);
  const sessions = db
    .prepare(`SELECT s.id, s.agent, s.project, substr(s.started_at, 1, 10) day,
    s.input_tokens + s.output_tokens + s.cache_read_tokens + s.cache_write_tokens tokens FROM sessions s ${where.sql}`)
    .all(...where.params) as SessionRow[];
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const days = new Map<string, ActivityCounts>();
  const projects = new Map<string, ActivityCounts>();
  const agents = new Map<string, ActivityCounts>();
  const totals = empty('');
  const add = (s: SessionRow, day: string | null, field: Exclude<keyof ActivityCounts, 'key'>, n: number) => {
    if (day) bump(days, day, field, n);
    bump(projects, s.project ?? '(none)', field, n);
    bump(agents, s.agent, field, n);
    totals[field] += n;
  };
  for (const s of sessions) {
    add(s, s.day, 'sessions', 1);
    add(s, s.day, 'tokens', s.tokens);
  }
  // Per session and day, written at ingest (store/activity-days.ts): small rows, not every message and block.
  const perDay = db
    .prepare('SELECT session_id, day, messages, tool_calls FROM session_days')
    .raw(true)
    .iterate() as Iterable<[number, string, number, number]>;
  for (const [id, day, messages, toolCalls] of perDay) {
    const s = byId.get(id);
    if (!s) continue;
    add(s, day || s.day, 'messages', messages);
    add(s, day || s.day, 'toolCalls', toolCalls);
  }
  // Per session and model, summed at ingest too: a few rows per session, not every reply's usage.
  const usage = db
    .prepare(`SELECT session_id, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens
    FROM session_model_tokens`)
    .raw(true)
    .iterate() as Iterable<[number, string, number, number, number, number]>;
  for (const [id, model, input, output, cacheRead, cacheWrite] of usage) {
    const s = byId.get(id);
    if (!s) continue;
    const cost = estimatedCost(model || null, { input, output, cacheRead, cacheWrite });
    if (cost === undefined) add(s, s.day, 'unpricedTokens', input + output + cacheRead + cacheWrite);
    else add(s, s.day, 'cost', cost);
  }
  const byWork = (a: ActivityCounts, b: ActivityCounts) => b.messages - a.messages || a.key.localeCompare(b.key);
  const { key: _key, ...total } = totals;
  return {
    byDay: [...days.values()].sort((a, b) => a.key.localeCompare(b.key)),
    byProject: [...projects.values()].sort(byWork),
    byAgent: [...agents.values()].sort(byWork),
    totals: total,
  };
}
