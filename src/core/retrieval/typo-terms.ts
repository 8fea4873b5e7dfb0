// Owns finding the index's own spelling of a mistyped word: the terms of blocks_fts (an fts5vocab table in
// the connection's temp schema, so a read-only store needs no migration) within edit distance 1 of a short
// word or 2 of a long one (adjacent swaps count 1), sharing its first letter. Reading the vocabulary costs
// what the postings of the terms read cost, so only two bounded reads are made: the terms that share the
// word's first PREFIX letters (one range), then, if none is one edit away, the slips in those (probed).
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../../store/statement-cache.js';

/** Terms sharing this many first letters are read as one range; edits before that are probed one by one. */
export const PREFIX = 3;
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
 * The distance-1 spellings of `word` that keep its first letter but not its first PREFIX letters, as typed
 * by a slip: two letters swapped, one doubled or added from a key nearby, a vowel left out, a key nearby.
 */
export function headEdits(word: string): string[] {
  const head = word.slice(0, PREFIX);
  const out = new Set<string>();
  for (let i = 1; i < Math.min(PREFIX, word.length); i++) {
    const [left, right] = [word.slice(0, i), word.slice(i)];
    const typed = word[i]!;
    for (const c of NEIGHBOURS.get(typed) ?? '') out.add(left + c + right.slice(1));
    // A letter left out is most often a vowel or one of a double letter, else one near a letter typed.
    const around = new Set([...'aeiou', typed, word[i - 1]!]);
    for (const c of (NEIGHBOURS.get(typed) ?? '') + (NEIGHBOURS.get(word[i - 1]!) ?? '')) around.add(c);
    for (const c of around) out.add(left + c + right);
    out.add(left + right.slice(1));
    if (right.length > 1) out.add(left + right[1] + right[0] + right.slice(2));
  }
  return [...out].filter((w) => w !== word && !w.startsWith(head));
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
  const head = word.slice(0, PREFIX);
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
  // Probing costs a seek per spelling: only when the range holds nothing one edit away.
  if (candidates.some((c) => c.distance === 1)) return best(candidates);
  const probed = cachedStatement(
    db,
    'SELECT term, doc FROM temp.strata_blocks_vocab WHERE term IN (SELECT value FROM json_each(?))',
  ).raw(true);
  for (const [term, docs] of probed.all(JSON.stringify(headEdits(word))) as [string, number][])
    candidates.push({ term, docs, distance: 1 });
  return best(candidates);
}

function best(candidates: NearTerm[]): NearTerm | undefined {
  candidates.sort((a, b) => a.distance - b.distance || b.docs - a.docs || (a.term < b.term ? -1 : 1));
  return candidates[0];
}
