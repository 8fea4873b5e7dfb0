// Owns the size a search query may have: search cost grows faster than the query (every word is matched in
// three forms and ranked), so a query past these bounds is refused in one line before any work is done.
import { StrataError } from './errors.js';

/** At most this many characters in a query (a question, keywords or a regular expression). */
export const QUERY_MAX_CHARS = 2000;
/** At most this many words in a keyword or question query (the operators OR, AND, NOT, NEAR not counted). */
export const QUERY_MAX_WORDS = 64;

const grouped = (n: number): string => n.toLocaleString('en-US');
const WORD = /[\p{L}\p{N}_]+/gu;
const OPERATOR = /^(?:OR|AND|NOT|NEAR)$/;

/** The words of a query the search would match (operators left out). */
export function queryWordCount(query: string): number {
  let count = 0;
  for (const [word] of query.matchAll(WORD)) if (!OPERATOR.test(word)) count++;
  return count;
}

/** Throws INVALID_QUERY (exit 2, HTTP 400) for a query past the bounds; the length is checked first. */
export function checkQuerySize(query: string, regex = false): void {
  if (query.length > QUERY_MAX_CHARS)
    throw new StrataError(
      'INVALID_QUERY',
      `invalid query: ${grouped(query.length)} characters (at most ${grouped(QUERY_MAX_CHARS)}); shorten it`,
    );
  if (regex) return;
  const words = queryWordCount(query);
  if (words > QUERY_MAX_WORDS)
    throw new StrataError(
      'INVALID_QUERY',
      `invalid query: ${grouped(words)} words (at most ${QUERY_MAX_WORDS}); keep the words that matter`,
    );
}
