// Owns the plain-text rendering of `strata index`: aligned columns, zero values blank, one line per session.
import type { IndexEntry } from './list-index.js';
import { displayPath, sessionHome } from './locations.js';

export const INDEX_HEADER = ['ID', 'DATE', 'AGENT', 'MSGS', 'USER', 'BASH', 'FETCH', 'SEARCH', '+LINES', '-LINES', 'FILES', 'COMMITS', 'PROJECT', 'LOCATIONS', 'TITLE'];

const TITLE_CHARS = 80;

function blank(n: number): string {
  return n === 0 ? '' : String(n);
}

/** `2025-11-02T10:03:04.000Z` → `2025-11-02 10:03` (UTC, as stored). */
export function shortTime(iso: string | null): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '';
}

/** Characters as a terminal counts them (code points, like `[...text].length`) without building an array. */
const HIGH_SURROGATE = /[\ud800-\udbff]/;

export function textWidth(text: string): number {
  if (!HIGH_SURROGATE.test(text)) return text.length;
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Pads cells into aligned columns (right-aligned numbers); the last column is not padded. */
export function alignColumns(rows: string[][], numeric: boolean[] = []): string {
  return alignedLines(rows, numeric).join('\n');
}

const TRAILING_SPACE = /\s$/;
const pads: string[] = [''];

function pad(n: number): string {
  while (pads.length <= n) pads.push(pads[pads.length - 1]! + ' ');
  return pads[n]!;
}

function alignedLines(rows: string[][], numeric: boolean[]): string[] {
  const widths: number[] = [];
  const cellWidths: number[][] = rows.map((row) => {
    const ws = new Array<number>(row.length);
    for (let i = 0; i < row.length; i++) {
      const w = textWidth(row[i]!);
      ws[i] = w;
      if (!(w <= widths[i]!)) widths[i] = w;
    }
    return ws;
  });
  return rows.map((row, r) => {
    const last = row.length - 1;
    const ws = cellWidths[r]!;
    let line = '';
    for (let i = 0; i < last; i++) {
      const fill = pad(widths[i]! - ws[i]!);
      line += numeric[i] ? fill + row[i]! + '  ' : row[i]! + fill + '  ';
    }
    const end = last >= 0 ? row[last]! : '';
    // trimEnd (which flattens the line) only when the line can end in white space.
    return end !== '' && !TRAILING_SPACE.test(end) ? line + end : (line + end).trimEnd();
  });
}

/** `home`: this machine's home folder (a session's own home is inferred from its project path first). */
export function formatIndex(entries: IndexEntry[], home: string | null = null): string {
  return formatIndexLines(entries, home).join('\n');
}

/** White space that collapsing runs to one space and trimming would change. */
const UNTIDY_SPACE = /^\s|\s$|\s\s|[^\S ]/;

/** The lines of `formatIndex` (header first), for printing without building one large string. */
export function formatIndexLines(entries: IndexEntry[], home: string | null = null): string[] {
  const projects = new Map<string, string>();
  const shownProject = (project: string): string => {
    let shown = projects.get(project);
    if (shown === undefined) projects.set(project, (shown = displayPath(project, null, sessionHome(project, home))));
    return shown;
  };
  // Cells of every row in one flat array (and their widths in a typed array): no per-row arrays to collect.
  const C = INDEX_HEADER.length;
  const cells: string[] = [...INDEX_HEADER];
  const cellWidths = new Int32Array((entries.length + 1) * C);
  const widths = new Int32Array(C);
  const add = (cell: string, width: number): void => {
    const k = cells.length;
    cells.push(cell);
    cellWidths[k] = width;
    if (width > widths[k % C]!) widths[k % C] = width;
  };
  const addNumber = (n: number): void => {
    const cell = blank(n);
    add(cell, cell.length);
  };
  INDEX_HEADER.forEach((h, i) => {
    cellWidths[i] = h.length;
    widths[i] = h.length;
  });
  for (const e of entries) {
    const marks = (e.relation && e.parentId ? `[${e.relation}] ` : '') + (e.archived ? '[archived] ' : '');
    const raw = e.title ?? '';
    const tidy = UNTIDY_SPACE.test(raw) ? raw.replace(/\s+/g, ' ').trim() : raw;
    const title = marks + (tidy.length > TITLE_CHARS ? tidy.slice(0, TITLE_CHARS - 1) + '…' : tidy);
    const project = e.project ? shownProject(e.project) : '';
    const locations = e.locations.length === 0 ? '' : e.locations.join(' ');
    // Dates and numbers are ASCII: their width is their length.
    add(e.shortId, textWidth(e.shortId));
    const date = shortTime(e.startedAt);
    add(date, date.length);
    add(e.agent, textWidth(e.agent));
    addNumber(e.messages);
    addNumber(e.userMessages);
    addNumber(e.bashCalls);
    addNumber(e.webFetches);
    addNumber(e.webSearches);
    const added = e.linesAdded ? `+${e.linesAdded}` : '';
    add(added, added.length);
    const removed = e.linesRemoved ? `-${e.linesRemoved}` : '';
    add(removed, removed.length);
    addNumber(e.filesTouched);
    addNumber(e.commits);
    add(project, textWidth(project));
    add(locations, textWidth(locations));
    add(title, textWidth(title));
  }
  const lines: string[] = [];
  for (let r = 0; r < cells.length; r += C) {
    let line = '';
    for (let i = 0; i < C - 1; i++) {
      const cell = cells[r + i]!;
      const fill = pad(widths[i]! - cellWidths[r + i]!);
      line += i >= 3 && i <= 11 ? fill + cell + '  ' : cell + fill + '  ';
    }
    const end = cells[r + C - 1]!;
    // trimEnd (which flattens the line) only when the line can end in white space.
    lines.push(end !== '' && !TRAILING_SPACE.test(end) ? line + end : (line + end).trimEnd());
  }
  return lines;
}
