// Owns the plain-text rendering of `search`: hits grouped by session (`#N field: snippet`), `-l` ids, `-c` counts.
import type { SearchResult, SearchSession } from './search.js';
import { shortTime } from './format-listing.js';
import { groupDigits } from '../../shared/numbers.js';

/** What a question's mistyped words were searched as: `searched for: kubernetes (for kuberentes)`. */
export function correctionLine(result: SearchResult): string | undefined {
  const corrected = result.corrected ?? [];
  return corrected.length > 0
    ? `searched for: ${corrected.map((c) => `${c.to} (for ${c.from})`).join(', ')}`
    : undefined;
}

/** How a session matched when no block holds every word (see search-words.ts). */
function matchNote(s: SearchSession): string {
  if (s.match === 'near') return '; every word within a few messages, not in one block';
  if (s.match === 'partial')
    return s.missing && s.missing.length > 0
      ? `; partial: no ${s.missing.map((w) => `"${w}"`).join(', ')}`
      : '; partial: the words are far apart';
  return '';
}

/** How the text says to see more: the CLI's flags by default; a tool names its own arguments. */
export interface SearchHints {
  /** Seeing every hit of a session. */
  more: (s: SearchSession) => string;
  /** Ranking every match when only the newest window was ranked. */
  filters: string;
  /** Blocks not yet in the full-text index: what finishes them and what searches them meanwhile. */
  unindexed?: string;
}

const CLI_HINTS: SearchHints = {
  more: (s) => `strata search … -s ${s.shortId} -m ${s.hitCount}`,
  filters: '(--project, --after, --in, -s) to rank every match; -c counts them all',
  unindexed: '(an ingest is writing them, or one was interrupted: `strata ingest` finishes it); -E searches them',
};

export function formatSearch(
  result: SearchResult,
  view: 'hits' | 'sessions' | 'counts',
  home: (path: string) => string = (p) => p,
  hints: SearchHints = CLI_HINTS,
): string {
  if (view === 'sessions') return result.sessions.map((s) => s.shortId).join('\n');
  if (view === 'counts') return result.sessions.map((s) => `${s.shortId}  ${s.hitCount}`).join('\n');
  const out: string[] = [];
  const corrected = correctionLine(result);
  if (corrected) out.push(corrected);
  for (const s of result.sessions) {
    if (out.length > 0) out.push('');
    const title = (s.title ?? '').replace(/\s+/g, ' ').trim().slice(0, 80);
    const head = [s.shortId, shortTime(s.startedAt), s.agent, s.project ? home(s.project) : '', title]
      .filter(Boolean)
      .join('  ');
    out.push(`${head}  (${s.hitCount} hit${s.hitCount === 1 ? '' : 's'}${matchNote(s)})`);
    for (const h of s.hits) out.push(`  #${h.message} ${h.field}: ${h.snippet}`);
    const more = s.hitCount - s.hits.length;
    if (more > 0) out.push(`  … ${more} more (${hints.more(s)})`);
  }
  if (result.window) {
    const ranked = groupDigits(result.window.ranked);
    out.push(
      '',
      `more than ${ranked} blocks match: these are the best of the newest ${ranked}. Add words or a filter ` +
        hints.filters,
    );
  }
  if (result.unindexed) {
    out.push(
      '',
      `${groupDigits(result.unindexed)} recently stored blocks are not in the full-text index yet ` +
        (hints.unindexed ?? CLI_HINTS.unindexed),
    );
  }
  return out.join('\n');
}

/** The one line `search` prints on stderr when nothing matched: never silent about what it did not search. */
export function noMatchLine(result: SearchResult): string {
  const flags =
    result.mode === 'regex' ? '' : ' (past 32 KB a tool result is indexed by paths and identifiers; -E scans all text)';
  const corrected = correctionLine(result);
  if (corrected) return `no matches (${corrected})`;
  if (result.hidden && result.hidden.noise > 0) {
    return `no matches in messages; ${groupDigits(result.hidden.noise)} in noise — add --in noise`;
  }
  return `no matches${flags}`;
}
