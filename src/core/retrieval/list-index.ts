// Owns `strata index` (and its alias `strata sessions`): one row per session, newest first, with mechanical
// statistics read from `session_stats` and rolled up recursively over subagent sessions (sessions.parent_id).
import { ensureSessionStats } from './session-stats.js';
import type { Database } from 'better-sqlite3';
import { sessionWhere, type SessionFilter } from '../sessions/list-sessions.js';
import { allShortIds, shortIdsFor } from './session-ids.js';
import { displayPath, sessionHome, significantLocations } from './locations.js';

export { sessionHome };

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

/** A raw row of SELECT (column positions below): raw arrays build ~3x faster than row objects. */
type Row = [
  id: number,
  externalId: string,
  agent: string,
  project: string | null,
  title: string | null,
  startedAt: string | null,
  endedAt: string | null,
  messages: number,
  prompts: number,
  parentId: number | null,
  parentExternalId: string | null,
  relation: string | null,
  archived: number,
  models: string | null,
  bash: number,
  fetch: number,
  search: number,
  added: number,
  removed: number,
  commits: number,
  files: string | null,
];

const columns = (display: boolean) => `SELECT s.id, s.external_id, s.agent, s.project, COALESCE(s.title, st.first_prompt), s.started_at,
  ${display ? 'NULL' : 's.ended_at'}, s.message_count, s.prompt_count, s.parent_id, s.parent_external_id, s.relation, s.archived,
  ${display ? 'NULL' : 's.models'},
  IFNULL(st.bash_calls, 0), IFNULL(st.web_fetches, 0), IFNULL(st.web_searches, 0), IFNULL(st.lines_added, 0),
  IFNULL(st.lines_removed, 0), IFNULL(st.commits, 0), st.files
  FROM sessions s LEFT JOIN session_stats st ON st.session_id = s.id`;

/** Below this many listed rows, short ids come from index lookups per row instead of every id in the store. */
const FEW_ROWS = 256;

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

/** A session's own files map with display paths as keys (several absolute paths may show the same). */
function ownFiles(r: Row, home: string | null): Record<string, number> {
  const files: Record<string, number> = {};
  const json = r[20];
  if (json && json !== '{}') {
    for (const [path, work] of Object.entries(JSON.parse(json) as Record<string, number>)) {
      const shown = displayPath(path, r[3], home);
      files[shown] = (files[shown] ?? 0) + work;
    }
  }
  return files;
}

function ownTotals(r: Row, home: string | null): Totals {
  return { messages: r[7], bash: r[14], fetch: r[15], search: r[16], added: r[17], removed: r[18], commits: r[19], subagents: 0, files: ownFiles(r, home) };
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
  return collectIndex(db, filter, home, false);
}

/**
 * `listIndex` for `formatIndex`: the same rows without what the table does not show (endedAt is null and
 * models is empty), which saves two strings per session on large stores.
 */
export function listIndexForDisplay(db: Database, filter: IndexFilter = {}, home: string | null = null): IndexEntry[] {
  return collectIndex(db, filter, home, true);
}

function collectIndex(db: Database, filter: IndexFilter, home: string | null, display: boolean): IndexEntry[] {
  const SELECT = columns(display);
  ensureSessionStats(db);
  const where = sessionWhere(filter);
  const clauses = where.sql ? [where.sql.replace(/^WHERE /, '')] : [];
  if (!filter.all) clauses.push('s.parent_id IS NULL');
  const limit = filter.limit && filter.limit > 0 ? `LIMIT ${Math.floor(filter.limit)}` : '';
  // started_at is never '' (timestamps or NULL), so this is the order of COALESCE(started_at, '') DESC.
  const children = new Map<number, Row[]>();
  for (const c of db.prepare(`${SELECT} WHERE s.parent_id IS NOT NULL`).raw(true).all() as Row[]) {
    const list = children.get(c[9]!);
    if (list) list.push(c);
    else children.set(c[9]!, [c]);
  }
  // Many sessions share a project (and so a home) and a models list: computed once per distinct value.
  const homes = new Map<string | null, string | null>();
  const homeOf = (project: string | null): string | null => {
    let h = homes.get(project);
    if (h === undefined && !homes.has(project)) homes.set(project, (h = sessionHome(project, home)));
    return h ?? null;
  };
  const models = new Map<string, string[]>();
  const modelsOf = (json: string | null): string[] => {
    if (json === null) return [];
    let m = models.get(json);
    if (!m) models.set(json, (m = JSON.parse(json) as string[]));
    return m.slice();
  };
  const rollUp = (r: Row, seen: Set<number>): Totals => {
    const t = ownTotals(r, homeOf(r[3]));
    for (const child of children.get(r[0]) ?? []) {
      if (seen.has(child[0])) continue; // defensive: a parent cycle must not loop
      seen.add(child[0]);
      addInto(t, rollUp(child, seen));
    }
    return t;
  };
  const toEntry = (r: Row): IndexEntry => {
    const leaf = !children.has(r[0]);
    // Most sessions have no subagents and no edits: their entry comes straight from the row.
    const t = leaf && (r[20] === null || r[20] === '{}') ? null : leaf ? ownTotals(r, homeOf(r[3])) : rollUp(r, new Set([r[0]]));
    const filesTouched = t ? Object.keys(t.files).length : 0;
    return {
      id: r[1],
      shortId: r[1],
      agent: r[2],
      project: r[3],
      title: r[4],
      startedAt: r[5],
      endedAt: r[6],
      messages: t ? t.messages : r[7],
      userMessages: r[8],
      prompts: r[8],
      bashCalls: t ? t.bash : r[14],
      webFetches: t ? t.fetch : r[15],
      webSearches: t ? t.search : r[16],
      linesAdded: t ? t.added : r[17],
      linesRemoved: t ? t.removed : r[18],
      filesTouched,
      locations: t && filesTouched > 0 ? significantLocations(t.files) : [],
      commits: t ? t.commits : r[19],
      subagents: t ? t.subagents : 0,
      parentId: r[10],
      relation: r[11],
      archived: r[12] === 1,
      models: modelsOf(r[13]),
    };
  };
  // Rows are turned into entries as they are read (not all kept first): less live data for the GC to copy.
  const entries: IndexEntry[] = [];
  const rows = db
    .prepare(`${SELECT} ${clauses.length ? 'WHERE ' + clauses.join(' AND ') : ''} ORDER BY s.started_at DESC, s.id DESC ${limit}`)
    .raw(true)
    .iterate(...where.params) as IterableIterator<Row>;
  for (const r of rows) entries.push(toEntry(r));
  const shortIds = entries.length < FEW_ROWS ? shortIdsFor(db, entries.map((e) => e.id)) : allShortIds(db);
  for (const e of entries) e.shortId = shortIds.get(e.id) ?? e.id;
  return entries;
}
