// Owns telling a common word from the others: one whose exact form alone fills a keyword's ranked window
// (search.ts RANK_WINDOW), so its other forms are not searched. The answers are kept per connection while
// the index reaches the same block.
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../../store/statement-cache.js';
import type { CommonWord } from './fts-query.js';

/** Matches of its exact form that make a word common: search.ts RANK_WINDOW. */
export const COMMON_MATCHES = 1000;

/**
 * True for a word whose exact form alone matches RANK_WINDOW blocks: it fills the ranked window by itself,
 * its prefixes, stems and camelCase parts would rank below it, and ranking them costs most of the query.
 */
export function commonWords(db: Database): CommonWord {
  const probe = cachedStatement(
    db,
    `SELECT COUNT(*) FROM (SELECT rowid FROM blocks_fts WHERE blocks_fts MATCH ? LIMIT ${COMMON_MATCHES})`,
  ).pluck(true);
  // Kept per connection while the index reaches the same block (a long-lived server asks again and again).
  const through = cachedStatement(db, 'SELECT indexed_through FROM fts_state WHERE id = 1').pluck(true).get();
  let known = commonKnown.get(db);
  if (!known || known.through !== through || known.words.size > COMMON_KNOWN_MAX) {
    known = { through, words: new Map() };
    commonKnown.set(db, known);
  }
  const words = known.words;
  return (exact) => {
    let common = words.get(exact);
    if (common === undefined) {
      common = (probe.get(exact) as number) >= COMMON_MATCHES;
      words.set(exact, common);
    }
    return common;
  };
}

const commonKnown = new WeakMap<Database, { through: unknown; words: Map<string, boolean> }>();
/** Words remembered per connection before the memory starts over. */
const COMMON_KNOWN_MAX = 20_000;
