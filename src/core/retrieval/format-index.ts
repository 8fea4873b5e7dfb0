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
  const rows = entries.map((e) => {
    const marks = (e.relation && e.parentId ? `[${e.relation}] ` : '') + (e.archived ? '[archived] ' : '');
    const raw = e.title ?? '';
    const title = UNTIDY_SPACE.test(raw) ? raw.replace(/\s+/g, ' ').trim() : raw;
    return [
      e.shortId,
      shortTime(e.startedAt),
      e.agent,
      blank(e.messages),
      blank(e.userMessages),
      blank(e.bashCalls),
      blank(e.webFetches),
      blank(e.webSearches),
      e.linesAdded ? `+${e.linesAdded}` : '',
      e.linesRemoved ? `-${e.linesRemoved}` : '',
      blank(e.filesTouched),
      blank(e.commits),
      e.project ? shownProject(e.project) : '',
      e.locations.join(' '),
      marks + (title.length > TITLE_CHARS ? title.slice(0, TITLE_CHARS - 1) + '…' : title),
    ];
  });
  const numeric = INDEX_HEADER.map((_, i) => i >= 3 && i <= 11);
  return alignedLines([INDEX_HEADER, ...rows], numeric);
}
