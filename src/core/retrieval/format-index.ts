// Owns the plain-text rendering of `strata index`: aligned columns, zero values blank, one line per session.
import { sessionHome, type IndexEntry } from './list-index.js';
import { displayPath } from './locations.js';

export const INDEX_HEADER = ['ID', 'DATE', 'AGENT', 'MSGS', 'USER', 'BASH', 'FETCH', 'SEARCH', '+LINES', '-LINES', 'FILES', 'COMMITS', 'PROJECT', 'LOCATIONS', 'TITLE'];

const TITLE_CHARS = 80;

function blank(n: number): string {
  return n === 0 ? '' : String(n);
}

/** `2025-11-02T10:03:04.000Z` → `2025-11-02 10:03` (UTC, as stored). */
export function shortTime(iso: string | null): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '';
}

/** Pads cells into aligned columns (right-aligned numbers); the last column is not padded. */
export function alignColumns(rows: string[][], numeric: boolean[] = []): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => {
          if (i === row.length - 1) return cell;
          const pad = ' '.repeat((widths[i] ?? 0) - [...cell].length);
          return numeric[i] ? pad + cell : cell + pad;
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `home`: this machine's home folder (a session's own home is inferred from its project path first). */
export function formatIndex(entries: IndexEntry[], home: string | null = null): string {
  const rows = entries.map((e) => {
    const marks = (e.relation && e.parentId ? `[${e.relation}] ` : '') + (e.archived ? '[archived] ' : '');
    const title = (e.title ?? '').replace(/\s+/g, ' ').trim();
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
      e.project ? displayPath(e.project, null, sessionHome(e.project, home)) : '',
      e.locations.join(' '),
      marks + (title.length > TITLE_CHARS ? title.slice(0, TITLE_CHARS - 1) + '…' : title),
    ];
  });
  const numeric = INDEX_HEADER.map((_, i) => i >= 3 && i <= 11);
  return alignColumns([INDEX_HEADER, ...rows], numeric);
}
