// Owns the session listing (`session_listing`, schema 5): per session, its statistics rolled up recursively
// over its subagent sessions (sessions.parent_id), its short id and the display cells of `strata index`.
// Rows are a cache of the sessions and session_stats tables: triggers delete a row when what it was computed
// from changes, and `ensureListing` computes every missing row and the rows of their ancestors. Ingest calls it
// at its end; a reader that finds rows missing (an ingest is running, or the store was just upgraded) computes
// them itself, into the store when it can take the write lock at once, else into a temporary table of its own.
import type { Database } from 'better-sqlite3';
import { displayPath, sessionHome, significantLocations } from './locations.js';
import { allShortIds, shortIdsFor } from './session-ids.js';

/** Characters of a title shown in the listing (longer titles end in `…`). */
export const TITLE_CHARS = 80;

/** Above this many rows to compute, short ids come from every id in the store instead of index lookups. */
const FEW_ROWS = 256;

/** A raw row of the statistics query (column positions below): raw arrays build faster than row objects. */
type StatsRow = [
  id: number,
  externalId: string,
  project: string | null,
  title: string | null,
  parentId: number | null,
  parentExternalId: string | null,
  relation: string | null,
  archived: number,
  messages: number,
  bash: number,
  fetch: number,
  search: number,
  added: number,
  removed: number,
  commits: number,
  files: string | null,
];

const STATS_COLUMNS = `s.id, s.external_id, s.project, COALESCE(s.title, st.first_prompt), s.parent_id, s.parent_external_id,
  s.relation, s.archived, s.message_count, IFNULL(st.bash_calls, 0), IFNULL(st.web_fetches, 0), IFNULL(st.web_searches, 0),
  IFNULL(st.lines_added, 0), IFNULL(st.lines_removed, 0), IFNULL(st.commits, 0), st.files`;

/** One row of `session_listing`, in its column order. */
type ListingRow = [
  sessionId: number,
  home: string | null,
  shortId: string,
  messages: number,
  bash: number,
  fetch: number,
  search: number,
  added: number,
  removed: number,
  filesTouched: number,
  commits: number,
  subagents: number,
  locations: string,
  shownProject: string,
  shownLocations: string,
  shownTitle: string,
];

interface Totals {
  messages: number;
  bash: number;
  fetch: number;
  search: number;
  added: number;
  removed: number;
  commits: number;
  subagents: number;
  files: Map<string, number>;
}

/** White space that collapsing runs to one space and trimming would change. */
const UNTIDY_SPACE = /^\s|\s$|\s\s|[^\S ]/;

/** A title as listed: marks (`[subagent]`, `[archived]`), white space runs collapsed, cut to TITLE_CHARS. */
export function shownTitle(title: string | null, marks: { relation?: string | null; parentExternalId?: string | null; archived?: boolean } = {}): string {
  const prefix = (marks.relation && marks.parentExternalId ? `[${marks.relation}] ` : '') + (marks.archived ? '[archived] ' : '');
  const raw = title ?? '';
  const tidy = UNTIDY_SPACE.test(raw) ? raw.replace(/\s+/g, ' ').trim() : raw;
  return prefix + (tidy.length > TITLE_CHARS ? tidy.slice(0, TITLE_CHARS - 1) + '…' : tidy);
}

/** Ids of sessions whose row is missing or was computed for another home, and of all their ancestors. */
function staleIds(db: Database, table: string, home: string | null): number[] {
  return db
    .prepare(
      `WITH RECURSIVE up(id) AS (
         SELECT s.id FROM sessions s LEFT JOIN ${table} l ON l.session_id = s.id WHERE l.session_id IS NULL OR l.home IS NOT ?
         UNION SELECT s.parent_id FROM sessions s JOIN up ON s.id = up.id WHERE s.parent_id IS NOT NULL)
       SELECT id FROM up`,
    )
    .pluck(true)
    .all(home) as number[];
}

/** Statistics rows of these sessions and of all their descendants (whole store when that is most of it). */
function statsRowsUnder(db: Database, ids: number[]): StatsRow[] {
  const from = 'FROM sessions s LEFT JOIN session_stats st ON st.session_id = s.id';
  const total = db.prepare('SELECT count(*) FROM sessions').pluck(true).get() as number;
  if (ids.length * 2 >= total) return db.prepare(`SELECT ${STATS_COLUMNS} ${from}`).raw(true).all() as StatsRow[];
  return db
    .prepare(
      `WITH RECURSIVE down(id) AS (SELECT value FROM json_each(?) UNION SELECT s.id FROM sessions s JOIN down ON s.parent_id = down.id)
       SELECT ${STATS_COLUMNS} FROM down JOIN sessions s ON s.id = down.id LEFT JOIN session_stats st ON st.session_id = s.id`,
    )
    .raw(true)
    .all(JSON.stringify(ids)) as StatsRow[];
}

/** Computes the listing rows of `ids` (short ids are filled in by the caller). */
function computeRows(db: Database, ids: number[], home: string | null): ListingRow[] {
  const rows = statsRowsUnder(db, ids);
  const byId = new Map<number, StatsRow>();
  const children = new Map<number, StatsRow[]>();
  for (const r of rows) {
    byId.set(r[0], r);
    if (r[4] === null) continue;
    const list = children.get(r[4]);
    if (list) list.push(r);
    else children.set(r[4], [r]);
  }
  // Many sessions share a project (and so a home and a shown project): computed once per distinct value.
  const homes = new Map<string | null, string | null>();
  const homeOf = (project: string | null): string | null => {
    let h = homes.get(project);
    if (h === undefined && !homes.has(project)) homes.set(project, (h = sessionHome(project, home)));
    return h ?? null;
  };
  const projects = new Map<string, string>();
  const shownProject = (project: string | null): string => {
    if (!project) return '';
    let shown = projects.get(project);
    if (shown === undefined) projects.set(project, (shown = displayPath(project, null, homeOf(project))));
    return shown;
  };
  const ownTotals = (r: StatsRow): Totals => {
    // Several absolute paths may show as the same display path: their work is added up.
    const files = new Map<string, number>();
    const json = r[15];
    if (json && json !== '{}') {
      for (const [path, work] of Object.entries(JSON.parse(json) as Record<string, number>)) {
        const shown = displayPath(path, r[2], homeOf(r[2]));
        files.set(shown, (files.get(shown) ?? 0) + work);
      }
    }
    return { messages: r[8], bash: r[9], fetch: r[10], search: r[11], added: r[12], removed: r[13], commits: r[14], subagents: 0, files };
  };
  const rollUp = (r: StatsRow, seen: Set<number>): Totals => {
    const t = ownTotals(r);
    for (const child of children.get(r[0]) ?? []) {
      if (seen.has(child[0])) continue; // defensive: a parent cycle must not loop
      seen.add(child[0]);
      const c = rollUp(child, seen);
      t.messages += c.messages;
      t.bash += c.bash;
      t.fetch += c.fetch;
      t.search += c.search;
      t.added += c.added;
      t.removed += c.removed;
      t.commits += c.commits;
      t.subagents += c.subagents + 1;
      for (const [p, w] of c.files) t.files.set(p, (t.files.get(p) ?? 0) + w);
    }
    return t;
  };
  const out: ListingRow[] = [];
  for (const id of ids) {
    const r = byId.get(id);
    if (!r) continue;
    const t = rollUp(r, new Set([id]));
    const locations = t.files.size > 0 ? significantLocations(Object.fromEntries(t.files)) : [];
    out.push([
      id, home, r[1], t.messages, t.bash, t.fetch, t.search, t.added, t.removed, t.files.size, t.commits, t.subagents,
      JSON.stringify(locations), shownProject(r[2]), locations.join(' '),
      shownTitle(r[3], { relation: r[6], parentExternalId: r[5], archived: r[7] === 1 }),
    ]);
  }
  return out;
}

/** Writes rows into `table` with their short ids, and lengthens the short ids that new sessions made ambiguous. */
function writeRows(db: Database, table: string, rows: ListingRow[]): void {
  if (rows.length === 0) return;
  const externals = rows.map((r) => r[2]);
  let shortIds: Map<string, string>;
  if (rows.length > FEW_ROWS) {
    shortIds = allShortIds(db);
  } else {
    // A new id can only lengthen the short ids of its neighbours in sorted order.
    const before = db.prepare('SELECT external_id FROM sessions WHERE external_id < ? ORDER BY external_id DESC LIMIT 1').pluck(true);
    const after = db.prepare('SELECT external_id FROM sessions WHERE external_id > ? ORDER BY external_id LIMIT 1').pluck(true);
    const around = new Set(externals);
    for (const id of externals) for (const n of [before.get(id), after.get(id)]) if (typeof n === 'string') around.add(n);
    shortIds = shortIdsFor(db, [...around]);
  }
  const insert = db.prepare(`INSERT OR REPLACE INTO ${table} VALUES (${rows[0]!.map(() => '?').join(', ')})`);
  for (const r of rows) {
    r[2] = shortIds.get(r[2]) ?? r[2];
    insert.run(r);
  }
  const update = db.prepare(`UPDATE ${table} SET short_id = ? WHERE session_id IN (SELECT id FROM sessions WHERE external_id = ?) AND short_id IS NOT ?`);
  const written = new Set(externals);
  for (const [id, short] of shortIds) if (!written.has(id)) update.run(short, id, short);
}

const overlays = new WeakSet<Database>();

/**
 * Makes every listing row current for `home` (the home folder display paths are relative to). Returns the
 * number of rows computed. Cheap when nothing is missing: one indexed anti-join. `wait`: wait for the write
 * lock like any writer (ingest) instead of falling back to a temporary table when the store is busy.
 */
export function ensureListing(db: Database, home: string | null, options: { wait?: boolean } = {}): number {
  if (overlays.has(db)) {
    // A temporary table from an earlier call shadows the store's: the store may be current by now.
    db.exec('DROP TABLE IF EXISTS temp.session_listing');
    overlays.delete(db);
  }
  if (!hasListingTable(db)) return 0; // a store opened with an older migration set (tests of upgrades)
  const ids = staleIds(db, 'main.session_listing', home);
  if (ids.length === 0) return 0;
  const rows = computeRows(db, ids, home);
  const write = () => writeRows(db, 'main.session_listing', rows);
  if (options.wait) {
    if (db.inTransaction) write();
    else db.transaction(write).immediate();
    return rows.length;
  }
  if (!db.readonly && tryImmediate(db, write)) return rows.length;
  // The store is busy (an ingest is writing) or read-only: this connection's own copy, current rows plus these.
  db.exec(`CREATE TEMP TABLE session_listing AS SELECT * FROM main.session_listing;
    CREATE UNIQUE INDEX temp.session_listing_id ON session_listing(session_id)`);
  overlays.add(db);
  db.prepare(`DELETE FROM temp.session_listing WHERE session_id IN (SELECT value FROM json_each(?))`).run(JSON.stringify(ids));
  writeRows(db, 'temp.session_listing', rows);
  return rows.length;
}

function hasListingTable(db: Database): boolean {
  return db.prepare("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = 'session_listing'").get() !== undefined;
}

/** Runs `write` in an immediate transaction if the write lock is free right now; false when it is not. */
function tryImmediate(db: Database, write: () => void): boolean {
  if (db.inTransaction) {
    write();
    return true;
  }
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    db.transaction(write).immediate();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY' || (error as { code?: string }).code === 'SQLITE_READONLY') return false;
    throw error;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}
