// Owns finding the index's own spelling of a mistyped word: the terms of blocks_fts (an fts5vocab table in
// the connection's temp schema, so a read-only store needs no migration) within edit distance 1 of a short
// word or 2 of a long one (adjacent swaps count 1), sharing its first letter. Reading the vocabulary costs
// what the postings of the terms read cost, so only two bounded reads are made: the terms that share the
// word's first letters (one range, see prefixLength), then the slips within those letters, probed in order
// of likelihood (swaps always, the others only until one is found).
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../../store/statement-cache.js';

/**
 * Terms sharing a word's first prefixLength letters are read as one range; edits before that are probed.
 * Half the word plus one, 3 to 5 letters: the range of a short prefix holds every common word sharing it.
 */
export const prefixLength = (word: string): number => Math.min(5, Math.max(3, Math.floor(word.length / 2) + 1));
/** Words at least this long are matched within edit distance 2 (within the range), shorter ones 1. */
export const LONG_WORD = 8;
/** Words shorter than this are never corrected: too many words lie one edit away. */
export const MIN_WORD = 4;

export interface NearTerm {
  term: string;
  /** Blocks holding the term. */
  docs: number;
  distance: number;
}

/**
 * Optimal string alignment distance (insert, delete, substitute, swap two adjacent letters), or max + 1
 * once it is certain to exceed max.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Letters next to each letter on a QWERTY keyboard (rows staggered by half a key). */
const NEIGHBOURS: ReadonlyMap<string, string> = new Map(
  ROWS.flatMap((row, r) =>
    [...row].map((key, c) => {
      const near = ROWS.flatMap((other, r2) =>
        [...other].filter((k, c2) => k !== key && Math.abs(r2 - r) <= 1 && Math.abs(c2 + r2 / 2 - (c + r / 2)) < 1.1),
      );
      return [key, near.join('')] as const;
    }),
  ),
);

/**
 * The distance-1 spellings of `word` that keep its first letter but not its prefixLength letters, most
 * likely slip first: two letters swapped, a letter added, a double or vowel left out, a key nearby.
 */
export function headEdits(word: string): string[] {
  const head = word.slice(0, prefixLength(word));
  const tiers: string[][] = [[], [], [], []];
  for (let i = 1; i < head.length; i++) {
    const [left, right] = [word.slice(0, i), word.slice(i)];
    const near = (NEIGHBOURS.get(word[i]!) ?? '') + (NEIGHBOURS.get(word[i - 1]!) ?? '');
    if (right.length > 1) tiers[0]!.push(left + right[1] + right[0] + right.slice(2));
    tiers[1]!.push(left + right.slice(1));
    for (const c of new Set([word[i - 1]!, word[i]!, ...'aeiou'])) tiers[2]!.push(left + c + right);
    for (const c of NEIGHBOURS.get(word[i]!) ?? '') tiers[3]!.push(left + c + right.slice(1));
    for (const c of near) tiers[3]!.push(left + c + right);
  }
  return [...new Set(tiers.flat())].filter((w) => w !== word && !w.startsWith(head));
}

const VOCAB_SQL =
  "CREATE VIRTUAL TABLE IF NOT EXISTS temp.strata_blocks_vocab USING fts5vocab(main, 'blocks_fts', 'row')";
const vocabReady = new WeakSet<Database>();

function vocabulary(db: Database): void {
  if (vocabReady.has(db)) return;
  db.exec(VOCAB_SQL);
  vocabReady.add(db);
}

/** The upper bound of a prefix range: the prefix with its last character incremented. */
function rangeEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/**
 * The nearest term of the index to `word` (lower-case letters), fewest edits first, then most blocks;
 * undefined when none is close or the word is too short.
 */
export function nearestTerm(db: Database, word: string): NearTerm | undefined {
  if (word.length < MIN_WORD || !/^[a-z]+$/.test(word)) return undefined;
  vocabulary(db);
  const max = word.length >= LONG_WORD ? 2 : 1;
  const head = word.slice(0, prefixLength(word));
  const candidates: NearTerm[] = [];
  const inRange = cachedStatement(
    db,
    'SELECT term, doc FROM temp.strata_blocks_vocab WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?',
  ).raw(true);
  for (const [term, docs] of inRange.all(head, rangeEnd(head), word.length - max, word.length + max) as [
    string,
    number,
  ][]) {
    const distance = term === word ? 0 : editDistance(word, term, max);
    if (distance >= 1 && distance <= max) candidates.push({ term, docs, distance });
  }
  // A probe costs a seek of the index: swaps (the likeliest slip) are always probed, the other slips only
  // when nothing one edit away is found, in order of likelihood until one is.
  const exists = cachedStatement(db, 'SELECT 1 FROM blocks_fts WHERE blocks_fts MATCH ? LIMIT 1').pluck(true);
  const docs = cachedStatement(db, 'SELECT doc FROM temp.strata_blocks_vocab WHERE term = ?').pluck(true);
  const edits = headEdits(word);
  const swaps = edits.slice(0, prefixLength(word) - 1).filter((term) => term.length === word.length);
  for (const term of swaps)
    if (exists.get(`"${term}"`) !== undefined) candidates.push({ term, docs: docs.get(term) as number, distance: 1 });
  if (candidates.some((c) => c.distance === 1)) return best(candidates);
  const found = edits.slice(swaps.length).find((term) => exists.get(`"${term}"`) !== undefined);
  if (found !== undefined) candidates.push({ term: found, docs: docs.get(found) as number, distance: 1 });
  return best(candidates);
}

function best(candidates: NearTerm[]): NearTerm | undefined {
  candidates.sort((a, b) => a.distance - b.distance || b.docs - a.docs || (a.term < b.term ? -1 : 1));
  return candidates[0];
}
