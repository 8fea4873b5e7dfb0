// Owns `strata index` (and its alias `strata sessions`): one row per session, newest first, with mechanical
// statistics rolled up recursively over subagent sessions. Everything is read from the session listing
// (listing-table.ts), computed at ingest: entries for --json and the API here, text in format-listing.ts.
import type { Database } from 'better-sqlite3';
import { withListing } from './listing-table.js';
import { sessionWhere, type SessionFilter } from '../sessions/session-filter.js';
import { sessionHome } from './locations.js';

export { sessionHome };

export interface ListingFilter extends SessionFilter {
  /** Also list subagent/child sessions as their own rows (they are always rolled into their parents). */
  all?: boolean;
}

/** What names a session in every listing: its ids, agent, project, title and start (search results too). */
export interface SessionHeading {
  id: string;
  shortId: string;
  agent: string;
  project: string | null;
  title: string | null;
  startedAt: string | null;
}

export interface ListingEntry extends SessionHeading {
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
  /** Successful git commits (a commit whose result failed is not one), subagents included. */
  commits: number;
  /** Their hashes as git printed them (abbreviated). */
  commitHashes: string[];
  subagents: number;
  parentId: string | null;
  relation: string | null;
  archived: boolean;
  models: string[];
}

/** The tables every listing query reads: a session and its listing row. */
export const LISTING_FROM = 'FROM sessions s JOIN session_listing l ON l.session_id = s.id';

/** The WHERE and ORDER BY (newest first, with the limit) of a listing query over LISTING_FROM, and its parameters. */
export function listingQuery(filter: ListingFilter): {
  where: string;
  order: string;
  limited: boolean;
  params: unknown[];
} {
  const where = sessionWhere(filter);
  const clauses = where.sql ? [where.sql.replace(/^WHERE /, '')] : [];
  if (!filter.all) clauses.push('s.parent_id IS NULL');
  const limit = filter.limit && filter.limit > 0 ? ` LIMIT ${Math.floor(filter.limit)}` : '';
  return {
    where: clauses.length ? 'WHERE ' + clauses.join(' AND ') : '',
    // started_at is never '' (timestamps or NULL), so this is the order of COALESCE(started_at, '') DESC.
    order: `ORDER BY s.started_at DESC, s.id DESC${limit}`,
    limited: limit !== '',
    params: where.params,
  };
}

type Row = [
  id: string,
  shortId: string,
  agent: string,
  project: string | null,
  title: string | null,
  startedAt: string | null,
  endedAt: string | null,
  messages: number,
  prompts: number,
  bash: number,
  fetch: number,
  search: number,
  added: number,
  removed: number,
  files: number,
  locations: string,
  commits: number,
  subagents: number,
  parentId: string | null,
  relation: string | null,
  archived: number,
  models: string,
  commitHashes: string,
];

/** Lists sessions newest first with their statistics (subagents rolled up recursively). */
export function listSessions(db: Database, filter: ListingFilter = {}, home: string | null = null): ListingEntry[] {
  const q = listingQuery(filter);
  const rows = withListing(
    db,
    home,
    () =>
      db
        .prepare(`SELECT s.external_id, l.short_id, s.agent, s.project, COALESCE(s.title, st.first_prompt),
          s.started_at, s.ended_at,
      l.messages, s.prompt_count, l.bash_calls, l.web_fetches, l.web_searches, l.lines_added, l.lines_removed,
        l.files_touched,
      l.locations, l.commits, l.subagents, s.parent_external_id, s.relation, s.archived, s.models,
      (SELECT json_group_array(j.value) FROM session_stats h, json_each(h.commit_hashes) j
        WHERE h.session_id = s.id OR h.session_id IN (SELECT c.id FROM sessions c WHERE c.parent_id = s.id))
      ${LISTING_FROM} LEFT JOIN session_stats st ON st.session_id = s.id ${q.where} ${q.order}`)
        .raw(true)
        .all(...q.params) as Row[],
  );
  return rows.map((r) => ({
    id: r[0],
    shortId: r[1],
    agent: r[2],
    project: r[3],
    title: r[4],
    startedAt: r[5],
    endedAt: r[6],
    messages: r[7],
    userMessages: r[8],
    prompts: r[8],
    bashCalls: r[9],
    webFetches: r[10],
    webSearches: r[11],
    linesAdded: r[12],
    linesRemoved: r[13],
    filesTouched: r[14],
    locations: r[15] === '[]' ? [] : (JSON.parse(r[15]) as string[]),
    commits: r[16],
    commitHashes: JSON.parse(r[22]) as string[],
    subagents: r[17],
    parentId: r[18],
    relation: r[19],
    archived: r[20] === 1,
    models: JSON.parse(r[21]) as string[],
  }));
}
