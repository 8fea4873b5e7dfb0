// Owns the Sessions page's data: the session listing (core/retrieval/session-listing.ts) filtered by text,
// sorted by any column, paged, with subagent sessions nested under their parents and totals over every
// matching session. One listing read per request; filtering, sorting and paging are in memory.
import type { Database } from 'better-sqlite3';
import { listSessions, type ListingEntry, type ListingFilter } from '../retrieval/session-listing.js';

export const SORT_KEYS = [
  'startedAt',
  'endedAt',
  'messages',
  'userMessages',
  'bashCalls',
  'linesAdded',
  'linesRemoved',
  'filesTouched',
  'commits',
  'subagents',
  'agent',
  'project',
  'title',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface SessionListQuery extends Omit<ListingFilter, 'all' | 'limit'> {
  /** Case-insensitive text in the title, project, id or locations. */
  text?: string;
  sort?: SortKey;
  descending?: boolean;
  offset?: number;
  /** Rows per page (default 100, at most 1000). */
  pageSize?: number;
}

export interface SessionRow extends ListingEntry {
  children: SessionRow[];
}

interface SessionListTotals {
  sessions: number;
  messages: number;
  userMessages: number;
  bashCalls: number;
  linesAdded: number;
  linesRemoved: number;
  commits: number;
  byAgent: Record<string, number>;
}

export interface SessionListPage {
  offset: number;
  pageSize: number;
  /** Top-level sessions matching (the pages' length). */
  matching: number;
  totals: SessionListTotals;
  rows: SessionRow[];
  projects: string[];
  agents: string[];
}

interface ListingTree {
  top: SessionRow[];
  projects: string[];
  agents: string[];
}

/**
 * The last listing read per connection, as a tree, reused while the store is unchanged (data_version
 * moves when another connection commits, total_changes when this one writes): paging, sorting and
 * typing in the filter neither re-read nor copy 10k rows.
 */
const lastListing = new WeakMap<Database, { key: string; tree: ListingTree }>();

function listingTree(db: Database, filter: ListingFilter, home: string | null): ListingTree {
  const version = db.prepare('SELECT total_changes()').pluck().get();
  const key = JSON.stringify([filter, home, db.pragma('data_version', { simple: true }), version]);
  const cached = lastListing.get(db);
  if (cached?.key === key) return cached.tree;
  const all = listSessions(db, filter, home);
  const byId = new Map<string, SessionRow>();
  for (const entry of all) byId.set(entry.id, Object.assign(entry, { children: [] as SessionRow[] }));
  const top: SessionRow[] = [];
  for (const row of byId.values()) {
    const parent = row.parentId !== null ? byId.get(row.parentId) : undefined;
    if (parent && parent !== row) parent.children.push(row);
    else top.push(row);
  }
  for (const row of byId.values()) if (row.children.length > 1) row.children.sort((a, b) => compare(a, b, 'startedAt'));
  const projects = [...new Set(all.map((r) => r.project).filter((p): p is string => p !== null))].sort();
  const agents = [...new Set(all.map((r) => r.agent))].sort();
  const tree = { top, projects, agents };
  lastListing.set(db, { key, tree });
  return tree;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function compare(a: SessionRow, b: SessionRow, key: SortKey): number {
  const x = a[key];
  const y = b[key];
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const sx = String(x ?? '');
  const sy = String(y ?? '');
  // Times are ISO strings: their code-unit order is time order, and much cheaper than collation.
  if (key === 'startedAt' || key === 'endedAt') return sx < sy ? -1 : sx > sy ? 1 : 0;
  return collator.compare(sx, sy);
}

function matchesText(row: ListingEntry, needle: string): boolean {
  return [row.title, row.project, row.id, row.agent, ...row.locations].some((v) => v?.toLowerCase().includes(needle));
}

/** One page of sessions for the listing view. */
export function sessionListPage(db: Database, query: SessionListQuery, home: string | null): SessionListPage {
  const { text, sort = 'startedAt', descending = true, offset = 0, pageSize = 100, ...filter } = query;
  const { top, projects, agents } = listingTree(db, { ...filter, all: true }, home);
  const needle = text?.trim().toLowerCase();
  const matching = needle
    ? top.filter((r) => matchesText(r, needle) || r.children.some((c) => matchesText(c, needle)))
    : [...top];
  const sign = descending ? -1 : 1;
  matching.sort((a, b) => sign * compare(a, b, sort) || sign * compare(a, b, 'startedAt'));
  const totals: SessionListTotals = {
    sessions: 0,
    messages: 0,
    userMessages: 0,
    bashCalls: 0,
    linesAdded: 0,
    linesRemoved: 0,
    commits: 0,
    byAgent: {},
  };
  // A session counts once, subagent sessions too (as on the Activity page); a row's other counts already
  // include its subagents'.
  const countFamily = (r: SessionRow): void => {
    totals.sessions++;
    totals.byAgent[r.agent] = (totals.byAgent[r.agent] ?? 0) + 1;
    for (const c of r.children) countFamily(c);
  };
  for (const r of matching) {
    countFamily(r);
    totals.messages += r.messages;
    totals.userMessages += r.userMessages;
    totals.bashCalls += r.bashCalls;
    totals.linesAdded += r.linesAdded;
    totals.linesRemoved += r.linesRemoved;
    totals.commits += r.commits;
  }
  const size = Math.min(1000, Math.max(1, Math.floor(pageSize)));
  const start = Math.max(0, Math.floor(offset));
  const rows = matching.slice(start, start + size);
  return { offset: start, pageSize: size, matching: matching.length, totals, rows, projects, agents };
}
