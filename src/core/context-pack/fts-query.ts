// Owns turning a user's search text into a safe FTS5 MATCH expression: plain words (punctuation
// and all) become quoted terms; explicit FTS5 syntax is passed through and checked by SQLite, and
// a syntax error becomes INVALID_QUERY with a one-line message, never a raw SQL error.
import { StrataError } from '../../shared/errors.js';

export type FtsQuery =
  | { kind: 'terms'; terms: string[]; all: string; any: string }
  | { kind: 'explicit'; expression: string };

const TOKEN_RE = /[\p{L}\p{N}\p{M}_]+/gu;
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Signs that the user wrote FTS5 syntax on purpose: quotes, grouping, operators, prefix stars, column filters. */
const EXPLICIT_RE = /["()]|\b(?:AND|OR|NOT)\b|\bNEAR\s*\(|\w\*|(?:^|\s)\^|\b(?:title_path|text)\s*:/;

/** Words of `text` the way FTS5's unicode61 tokenizer sees them. */
export function queryTerms(text: string): string[] {
  return text.match(TOKEN_RE) ?? [];
}

export function hasCjk(text: string): boolean {
  return CJK_RE.test(text);
}

/** Classifies and prepares a query; throws INVALID_QUERY when it has nothing to search for. */
export function buildFtsQuery(query: string): FtsQuery {
  const trimmed = query.trim();
  if (!trimmed) throw new StrataError('INVALID_QUERY', 'search query is empty');
  if (EXPLICIT_RE.test(trimmed)) return { kind: 'explicit', expression: trimmed };
  const terms = queryTerms(trimmed);
  if (terms.length === 0) {
    throw new StrataError('INVALID_QUERY', `search query "${trimmed}" has no words to search for`);
  }
  const quoted = terms.map((t) => `"${t}"`);
  return { kind: 'terms', terms, all: quoted.join(' '), any: quoted.join(' OR ') };
}

/** Maps an SQLite error raised by a MATCH expression to INVALID_QUERY; rethrows anything else. */
export function invalidQueryError(query: string, error: unknown): StrataError {
  const message = error instanceof Error ? error.message : String(error);
  if (/fts5|syntax error|no such column|unterminated|malformed MATCH/i.test(message)) {
    const reason = message.replace(/^fts5:\s*/, '').split('\n')[0];
    return new StrataError(
      'INVALID_QUERY',
      `invalid search query ${JSON.stringify(query)}: ${reason} (use plain words, or valid FTS5 syntax such as ` +
        `"exact phrase", a OR b, prefix*)`,
    );
  }
  throw error;
}
