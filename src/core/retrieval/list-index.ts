// Owns `strata index` (and its alias `strata sessions`): one row per session, newest first, with mechanical
// statistics read from `session_stats` and rolled up recursively over subagent sessions (sessions.parent_id).
import { ensureSessionStats } from './session-stats.js';
import type { Database } from 'better-sqlite3';
import { sessionWhere, type SessionFilter } from '../sessions/list-sessions.js';
import { allShortIds } from './session-ids.js';
import { displayPath, significantLocations } from './locations.js';

export interface IndexFilter extends SessionFilter {
  /** Also list subagent/child sessions as their own rows (they are always rolled into their parents). */
  all?: boolean;
}

export interface IndexEntry {
  id: string;
  shortId: string;
  agent: string;
  project: string | null;
  title: string | null;
  startedAt: string | null;
  endedAt: string | null;
  /** Messages, including subagent sessions. */
  messages: number;
  /** Human prompts of this session itself (a subagent's task prompt is not a human prompt). */
  userMessages: number;
  /** Same as userMessages (kept for `strata sessions --json` readers). */
  prompts: number;
  bashCalls: number;
  webFetches: number;
  webSearches: number;
  linesAdded: number;
  linesRemoved: number;
  filesTouched: number;
  locations: string[];
  commits: number;
  subagents: number;
  parentId: string | null;
  relation: string | null;
  archived: boolean;
  models: string[];
}

interface Row {
  id: number;
  external_id: string;
  agent: string;
  project: string | null;
  title: string | null;
  started_at: string | null;
  ended_at: string | null;
  message_count: number;
  prompt_count: number;
  parent_id: number | null;
  parent_external_id: string | null;
  relation: string | null;
  archived: number;
  models: string;
  bash_calls: number | null;
  web_fetches: number | null;
  web_searches: number | null;
  lines_added: number | null;
  lines_removed: number | null;
  commits: number | null;
  files: string | null;
  first_prompt: string | null;
}

const SELECT = `SELECT s.id, s.external_id, s.agent, s.project, s.title, s.started_at, s.ended_at, s.message_count, s.prompt_count,
  s.parent_id, s.parent_external_id, s.relation, s.archived, s.models, st.bash_calls, st.web_fetches, st.web_searches,
  st.lines_added, st.lines_removed, st.commits, st.files, st.first_prompt
  FROM sessions s LEFT JOIN session_stats st ON st.session_id = s.id`;

interface Totals {
  messages: number;
  bash: number;
  fetch: number;
  search: number;
  added: number;
  removed: number;
  commits: number;
  subagents: number;
  files: Record<string, number>;
}

const HOME_OF_PROJECT = /^(\/home\/[^/]+|\/Users\/[^/]+|\/root|[A-Za-z]:[\\/]Users[\\/][^\\/]+)(?=[\\/]|$)/;

/** The home folder of the machine a session ran on, inferred from its project path, else this machine's. */
export function sessionHome(project: string | null, fallback: string | null): string | null {
  const m = project ? HOME_OF_PROJECT.exec(project) : null;
  return m ? m[1]!.replace(/\\/g, '/') : fallback;
}

function ownTotals(r: Row, localHome: string | null): Totals {
  const home = sessionHome(r.project, localHome);
  const files: Record<string, number> = {};
  if (r.files && r.files !== '{}') {
    for (const [path, work] of Object.entries(JSON.parse(r.files) as Record<string, number>)) {
      const shown = displayPath(path, r.project, home);
      files[shown] = (files[shown] ?? 0) + work;
    }
  }
  return {
    messages: r.message_count,
    bash: r.bash_calls ?? 0,
    fetch: r.web_fetches ?? 0,
    search: r.web_searches ?? 0,
    added: r.lines_added ?? 0,
    removed: r.lines_removed ?? 0,
    commits: r.commits ?? 0,
    subagents: 0,
    files,
  };
}

function addInto(into: Totals, t: Totals): void {
  into.messages += t.messages;
  into.bash += t.bash;
  into.fetch += t.fetch;
  into.search += t.search;
  into.added += t.added;
  into.removed += t.removed;
  into.commits += t.commits;
  into.subagents += t.subagents + 1;
  for (const [p, w] of Object.entries(t.files)) into.files[p] = (into.files[p] ?? 0) + w;
}

/** Lists sessions newest first with their statistics (subagents rolled up recursively). */
export function listIndex(db: Database, filter: IndexFilter = {}, home: string | null = null): IndexEntry[] {
  ensureSessionStats(db);
  const where = sessionWhere(filter);
  const clauses = where.sql ? [where.sql.replace(/^WHERE /, '')] : [];
  if (!filter.all) clauses.push('s.parent_id IS NULL');
  const limit = filter.limit && filter.limit > 0 ? `LIMIT ${Math.floor(filter.limit)}` : '';
  const rows = db
    .prepare(`${SELECT} ${clauses.length ? 'WHERE ' + clauses.join(' AND ') : ''} ORDER BY COALESCE(s.started_at, '') DESC, s.id DESC ${limit}`)
    .all(...where.params) as Row[];
  const children = new Map<number, Row[]>();
  for (const c of db.prepare(`${SELECT} WHERE s.parent_id IS NOT NULL`).all() as Row[]) {
    const list = children.get(c.parent_id!);
    if (list) list.push(c);
    else children.set(c.parent_id!, [c]);
  }
  const shortIds = allShortIds(db);
  const rollUp = (r: Row, seen: Set<number>): Totals => {
    const t = ownTotals(r, home);
    for (const child of children.get(r.id) ?? []) {
      if (seen.has(child.id)) continue; // defensive: a parent cycle must not loop
      seen.add(child.id);
      addInto(t, rollUp(child, seen));
    }
    return t;
  };
  return rows.map((r) => {
    const t = children.has(r.id) ? rollUp(r, new Set([r.id])) : ownTotals(r, home);
    return {
      id: r.external_id,
      shortId: shortIds.get(r.external_id) ?? r.external_id,
      agent: r.agent,
      project: r.project,
      title: r.title ?? r.first_prompt,
      startedAt: r.started_at,
      endedAt: r.ended_at,
      messages: t.messages,
      userMessages: r.prompt_count,
      prompts: r.prompt_count,
      bashCalls: t.bash,
      webFetches: t.fetch,
      webSearches: t.search,
      linesAdded: t.added,
      linesRemoved: t.removed,
      filesTouched: Object.keys(t.files).length,
      locations: significantLocations(t.files),
      commits: t.commits,
      subagents: t.subagents,
      parentId: r.parent_external_id,
      relation: r.relation,
      archived: r.archived === 1,
      models: JSON.parse(r.models) as string[],
    };
  });
}
