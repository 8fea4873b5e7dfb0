// Owns the session listing (`session_listing`, schema 5): per session, its statistics rolled up recursively
// over its subagent sessions (sessions.parent_id), its short id and the display cells of `strata index`.
// Rows are a cache of the sessions and session_stats tables: triggers delete a row when what it was computed
// from changes, and every missing row is computed again with the rows of its ancestors: by ingest at its end
// (`ensureListing`), or by a reader that finds rows missing (`withListing`: an ingest is running, or the store
// was just upgraded), into the store when it can write at once, else into a temporary table of its own.
import type { Database } from 'better-sqlite3';
import { displayPath, sessionHome, significantLocations } from './locations.js';
import { allShortIds, shortIdsAround } from './session-ids.js';
import { ensureSessionStats } from '../../store/session-stats.js';

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

const STATS_COLUMNS = `s.id, s.external_id, s.project, COALESCE(s.title, st.first_prompt), s.parent_id,
  s.parent_external_id, s.relation, s.archived, s.message_count, IFNULL(st.bash_calls, 0), IFNULL(st.web_fetches, 0),
  IFNULL(st.web_searches, 0),
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
export function shownTitle(
  title: string | null,
  marks: { relation?: string | null; parentExternalId?: string | null; archived?: boolean } = {},
): string {
  const prefix =
    (marks.relation && marks.parentExternalId ? `[${marks.relation}] ` : '') + (marks.archived ? '[archived] ' : '');
  const raw = cell(title ?? '');
  const tidy = UNTIDY_SPACE.test(raw) ? raw.replace(/\s+/g, ' ').trim() : raw;
  if (tidy.length <= TITLE_CHARS) return prefix + tidy;
  // Never cut between the two halves of a surrogate pair (an emoji).
  const cut = isHighSurrogate(tidy.charCodeAt(TITLE_CHARS - 2)) ? TITLE_CHARS - 2 : TITLE_CHARS - 1;
  return prefix + tidy.slice(0, cut) + '…';
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Text as a listing cell: without NUL characters, where SQLite's printf() and length() would stop. */
function cell(text: string): string {
  return text.includes('\0') ? text.replace(/\0/g, '') : text;
}

/** Ids of sessions whose row is missing or was computed for another home, and of all their ancestors. */
function staleIds(db: Database, home: string | null): number[] {
  return db
    .prepare(
      `WITH RECURSIVE up(id) AS (
         SELECT s.id FROM sessions s LEFT JOIN main.session_listing l ON l.session_id = s.id WHERE l.session_id IS
           NULL OR l.home IS NOT ?
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
      `WITH RECURSIVE down(id) AS (SELECT value FROM json_each(?) UNION SELECT s.id FROM sessions s JOIN down ON
        s.parent_id = down.id)
       SELECT ${STATS_COLUMNS} FROM down JOIN sessions s ON s.id = down.id LEFT JOIN session_stats st ON ` +
        `st.session_id = s.id`,
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
    if (shown === undefined) projects.set(project, (shown = cell(displayPath(project, null, homeOf(project)))));
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
    return {
      messages: r[8],
      bash: r[9],
      fetch: r[10],
      search: r[11],
      added: r[12],
      removed: r[13],
      commits: r[14],
      subagents: 0,
      files,
    };
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
      id,
      home,
      r[1],
      t.messages,
      t.bash,
      t.fetch,
      t.search,
      t.added,
      t.removed,
      t.files.size,
      t.commits,
      t.subagents,
      JSON.stringify(locations),
      shownProject(r[2]),
      cell(locations.join(' ')),
      shownTitle(r[3], { relation: r[6], parentExternalId: r[5], archived: r[7] === 1 }),
    ]);
  }
  return out;
}

/**
 * Replaces the rows of `ids` in `table` by `rows` with their short ids, and lengthens the short ids that new
 * sessions made ambiguous. Its first statement writes (see `writesNow`).
 */
function writeRows(db: Database, table: string, ids: number[], rows: ListingRow[]): void {
  db.prepare(`DELETE FROM ${table} WHERE session_id IN (SELECT value FROM json_each(?))`).run(JSON.stringify(ids));
  if (rows.length === 0) return;
  const externals = rows.map((r) => r[2]);
  let shortIds: Map<string, string>;
  if (rows.length > FEW_ROWS) {
    shortIds = allShortIds(db);
  } else {
    // A new id can only lengthen the short ids of its neighbours in sorted order.
    shortIds = shortIdsAround(db, externals);
  }
  const insert = db.prepare(`INSERT INTO ${table} VALUES (${rows[0]!.map(() => '?').join(', ')})`);
  for (const r of rows) {
    r[2] = shortIds.get(r[2]) ?? r[2];
    insert.run(r);
  }
  // Every session with one of these external ids (agents may share one), not only the rows just written.
  const update = db.prepare(
    `UPDATE ${table} SET short_id = ? WHERE session_id IN (SELECT id FROM sessions WHERE external_id = ?) AND ` +
      `short_id IS NOT ?`,
  );
  for (const [id, short] of shortIds) update.run(short, id, short);
}

const overlays = new WeakSet<Database>();

/**
 * Runs `read` (queries of `session_listing`) against a listing current for `home` (the home folder display
 * paths are relative to), in one transaction so that the rows it sees are the ones checked. Missing rows are
 * computed from the same snapshot and written to the store only if that snapshot is still the newest and the
 * write lock is free right now; otherwise (an ingest is writing) into this connection's temporary table.
 */
export function withListing<T>(db: Database, home: string | null, read: () => T): T {
  ensureSessionStats(db); // stores ingested before statistics existed (writes, so before the read transaction)
  if (overlays.has(db)) {
    // A temporary table from an earlier call shadows the store's: the store may be current by now.
    db.exec('DROP TABLE IF EXISTS temp.session_listing');
    overlays.delete(db);
  }
  const run = (): T => {
    refreshForRead(db, home);
    return read();
  };
  return db.inTransaction ? run() : db.transaction(run)();
}

/**
 * Computes and writes every missing or stale listing row (ingest, at its end: waits for the write lock like
 * any writer). Returns the number of rows computed. Cheap when nothing is missing: one indexed anti-join.
 */
export function ensureListing(db: Database, home: string | null): number {
  if (!hasListingTable(db)) return 0; // a store opened with an older migration set (tests of upgrades)
  let computed = 0;
  const refresh = () => {
    const ids = staleIds(db, home);
    if (ids.length === 0) return;
    const rows = computeRows(db, ids, home);
    writeRows(db, 'main.session_listing', ids, rows);
    computed = rows.length;
  };
  if (db.inTransaction) refresh();
  else db.transaction(refresh).immediate();
  return computed;
}

function refreshForRead(db: Database, home: string | null): void {
  const ids = staleIds(db, home);
  if (ids.length === 0) return;
  const rows = computeRows(db, ids, home);
  if (!db.readonly && writesNow(db, () => writeRows(db, 'main.session_listing', ids, rows))) return;
  db.exec(`CREATE TEMP TABLE session_listing AS SELECT * FROM main.session_listing;
    CREATE UNIQUE INDEX temp.session_listing_id ON session_listing(session_id)`);
  overlays.add(db);
  writeRows(db, 'temp.session_listing', ids, rows);
}

function hasListingTable(db: Database): boolean {
  return (
    db.prepare("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = 'session_listing'").get() !== undefined
  );
}

/**
 * Runs `write` inside the current read transaction if it can become a write transaction at once: false when
 * another connection holds the write lock or committed since this snapshot began (SQLITE_BUSY_SNAPSHOT), in
 * which case nothing was written. The first statement of `write` must write.
 */
function writesNow(db: Database, write: () => void): boolean {
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    write();
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_READONLY')) return false;
    throw error;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}
