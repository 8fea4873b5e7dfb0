// Owns the plain-text rendering of `strata index`: aligned columns, zero values blank, one line per session.
// SQLite renders each line (printf with the column widths of a first aggregate query), so listing 10,000
// sessions builds 10,000 strings instead of an object and fifteen cells per session.
import type { Database } from 'better-sqlite3';
import { LISTING_FROM, listingQuery, type ListingFilter } from './session-listing.js';
import { withListing } from './listing-table.js';

export const LISTING_HEADER = [
  'ID',
  'DATE',
  'AGENT',
  'MSGS',
  'USER',
  'BASH',
  'FETCH',
  'SEARCH',
  '+LINES',
  '-LINES',
  'FILES',
  'COMMITS',
  'PROJECT',
  'LOCATIONS',
  'TITLE',
];

/** The cell of each column (NULL prints blank: zero values are NULL). */
const CELLS = [
  'l.short_id',
  "replace(substr(s.started_at, 1, 16), 'T', ' ')",
  's.agent',
  'NULLIF(l.messages, 0)',
  'NULLIF(s.prompt_count, 0)',
  'NULLIF(l.bash_calls, 0)',
  'NULLIF(l.web_fetches, 0)',
  'NULLIF(l.web_searches, 0)',
  "'+' || NULLIF(l.lines_added, 0)",
  "'-' || NULLIF(l.lines_removed, 0)",
  'NULLIF(l.files_touched, 0)',
  'NULLIF(l.commits, 0)',
  'l.shown_project',
  'l.shown_locations',
  'l.shown_title',
];

/**
 * Text columns wider than this are cut (with …) so one long path does not pad every line: PROJECT keeps
 * its end (the project folder), LOCATIONS its start (the main location). `--json` has every cell whole.
 */
const CAPS: Record<number, { width: number; keep: 'end' | 'start' }> = {
  12: { width: 40, keep: 'end' },
  13: { width: 48, keep: 'start' },
};

/** The SQL of column `i`'s cell cut to its cap. */
function cappedCell(i: number): string {
  const cap = CAPS[i];
  const c = CELLS[i]!;
  if (!cap) return c;
  const cut =
    cap.keep === 'end' ? `'…' || substr(${c}, -${cap.width - 1})` : `substr(${c}, 1, ${cap.width - 1}) || '…'`;
  return `(CASE WHEN length(${c}) > ${cap.width} THEN ${cut} ELSE ${c} END)`;
}

/** Right-aligned columns: the counts. */
const NUMERIC = (column: number): boolean => column >= 3 && column <= 11;

/** `2025-11-02T10:03:04.000Z` → `2025-11-02 10:03` (UTC, as stored). */
export function shortTime(iso: string | null): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '';
}

/**
 * The lines of the listing table (header first; none when no session matches). `home`: this machine's home
 * folder (a session's own home is inferred from its project path first).
 */
export function listingLines(db: Database, filter: ListingFilter = {}, home: string | null = null): string[] {
  return withListing(db, home, () => renderLines(db, filter));
}

/** The two queries of `listingLines` (widths, then lines), run in the caller's transaction. */
function renderLines(db: Database, filter: ListingFilter): string[] {
  const q = listingQuery(filter);
  // Widths in characters (code points), as SQLite's length() and printf's `!` flag count them.
  const rows = q.limited
    ? `(SELECT ${CELLS.map((c, i) => `${c} AS c${i}`).join(', ')} ${LISTING_FROM} ${q.where} ${q.order})`
    : null;
  const widthSql = rows
    ? `SELECT count(*), ${CELLS.map((_, i) => `max(length(c${i}))`).join(', ')} FROM ${rows}`
    : `SELECT count(*), ${CELLS.map((c) => `max(length(${c}))`).join(', ')} ${LISTING_FROM} ${q.where}`;
  const [count, ...maxima] = db
    .prepare(widthSql)
    .raw(true)
    .get(...q.params) as [number, ...(number | null)[]];
  if (count === 0) return [];
  // A column blank in every row shown is left out: no column is wider than its widest cell.
  const shown = CELLS.map((_, i) => i).filter((i) => (maxima[i] ?? 0) > 0 || i < 3);
  const widths = LISTING_HEADER.map((h, i) => Math.max(h.length, Math.min(maxima[i] ?? 0, CAPS[i]?.width ?? Infinity)));
  const last = shown[shown.length - 1]!;
  const header = shown
    .map((i) =>
      i === last
        ? LISTING_HEADER[i]!
        : NUMERIC(i)
          ? LISTING_HEADER[i]!.padStart(widths[i]!)
          : LISTING_HEADER[i]!.padEnd(widths[i]!),
    )
    .join('  ');
  const format = shown.map((i) => (i === last ? '%s' : NUMERIC(i) ? `%${widths[i]}s` : `%!-${widths[i]}s`)).join('  ');
  // rtrim: a line whose last cells are blank does not end in padding.
  const lines = db
    .prepare(
      `SELECT rtrim(printf(?, ${shown.map((i) => cappedCell(i)).join(', ')})) ${LISTING_FROM} ${q.where} ${q.order}`,
    )
    .pluck(true)
    .all(format, ...q.params) as string[];
  return [header, ...lines];
}
