// Owns ranking sessions for a question by the evidence spread over their messages: each word of the
// question is matched alone (its BM25 carries its rarity, times the word's weight), a session earns its
// best and second-best block per word, a bonus for the best short passage (a prompt and its reply) holding
// several words, is scaled by the share of the question's evidence it holds, and gains for words its title
// holds. No single block has to hold every word. Weights were chosen on LongMemEval-S and held against
// bench/quality.mjs.
import type { Database } from 'better-sqlite3';
import { stemmer } from 'stemmer';
import { hasCjk } from '../../store/fts-text.js';
import { cachedStatement } from '../../store/statement-cache.js';
import type { QuestionWord } from './question-words.js';
import { type WordHit, type WordScope, wordMatches } from './search-words.js';

/** A passage is this many consecutive messages (a prompt and its reply). */
export const PASSAGE_MESSAGES = 2;
/** Weight of a word's second-best block in a session (evidence repeated across messages). */
const SECOND_BLOCK = 0.35;
/** Weight of the best passage's sum over words, added to the per-word sums. */
const PASSAGE_WEIGHT = 0.6;
/** How steeply a session's score falls with the share of the question's evidence it lacks. */
const COVERAGE_POWER = 0.5;
/** Weight of the words a session's title (or first prompt) holds, each worth its best evidence. */
const TITLE_WEIGHT = 0.5;
/** Titles are read for this many of the best sessions only. */
const TITLE_POOL = 100;

export interface QuestionSession {
  sessionId: number;
  /** Absent when one block holds every word; 'near' when a passage does; else 'partial'. */
  match?: 'near' | 'partial';
  /** Words of the question the session does not hold. */
  missing: string[];
  /** The best block of each word (those of the best passage first), best first; a block once. */
  shown: WordHit[];
  /** Blocks matching any word. */
  count: number;
}

/** A session's score; what it shows is worked out only for the sessions returned (describe). */
interface Scored {
  sessionId: number;
  /** Sorted by seq. */
  hits: WordHit[];
  passage: { from: number; to: number };
  score: number;
}

/** Best (highest) evidence per word among `hits` (scores are negated BM25: higher is better). */
function bestPerWord(hits: WordHit[], words: number): number[] {
  const best = new Array<number>(words).fill(0);
  for (const h of hits) best[h.word] = Math.max(best[h.word]!, -h.score);
  return best;
}

/** The highest per-word sum over any run of PASSAGE_MESSAGES consecutive messages (hits sorted by seq). */
function bestPassage(hits: WordHit[], words: number): { score: number; from: number; to: number } {
  let top = { score: 0, from: 0, to: 0 };
  for (let lo = 0, hi = 0; lo < hits.length; lo++) {
    while (hi < hits.length && hits[hi]!.seq - hits[lo]!.seq < PASSAGE_MESSAGES) hi++;
    const score = bestPerWord(hits.slice(lo, hi), words).reduce((a, b) => a + b, 0);
    if (score > top.score) top = { score, from: lo, to: hi };
  }
  return top;
}

/** What each word is worth: its best evidence in any session (a rare word's BM25 is high). */
function wordValues(bySession: Map<number, WordHit[]>, words: number): number[] {
  const value = new Array<number>(words).fill(0);
  for (const hits of bySession.values()) {
    const best = bestPerWord(hits, words);
    for (let i = 0; i < words; i++) value[i] = Math.max(value[i]!, best[i]!);
  }
  return value;
}

function scoreSession(sessionId: number, hits: WordHit[], words: QuestionWord[], value: number[]): Scored {
  const n = words.length;
  hits.sort((a, b) => a.seq - b.seq || a.score - b.score);
  const first = new Array<number>(n).fill(0);
  const second = new Array<number>(n).fill(0);
  for (const h of hits) {
    const s = -h.score;
    if (s > first[h.word]!) {
      second[h.word] = first[h.word]!;
      first[h.word] = s;
    } else if (s > second[h.word]!) second[h.word] = s;
  }
  const passage = bestPassage(hits, n);
  let score = PASSAGE_WEIGHT * passage.score;
  for (let i = 0; i < n; i++) score += first[i]! + SECOND_BLOCK * second[i]!;
  const held = new Set(hits.map((h) => h.word));
  const total = value.reduce((a, b) => a + b, 0) || 1;
  score *= ([...held].reduce((sum, i) => sum + value[i]!, 0) / total) ** COVERAGE_POWER;
  return { sessionId, hits, passage, score };
}

/** What a returned session shows: its match, missing words, best blocks and hit count. */
function describe({ sessionId, hits, passage }: Scored, words: QuestionWord[]): QuestionSession {
  const n = words.length;
  const perBlock = new Map<number, Set<number>>();
  for (const h of hits) perBlock.set(h.id, (perBlock.get(h.id) ?? new Set<number>()).add(h.word));
  const held = new Set(hits.map((h) => h.word));
  const inPassage = hits.slice(passage.from, passage.to);
  const missing = words.filter((_, i) => !held.has(i)).map((w) => w.text);
  const oneBlock = [...perBlock.values()].some((set) => set.size === n);
  const near = new Set(inPassage.map((h) => h.word)).size === n;
  return {
    sessionId,
    ...(oneBlock ? {} : { match: near ? ('near' as const) : ('partial' as const) }),
    missing,
    shown: pickShown(inPassage, hits),
    count: perBlock.size,
  };
}

/** Ranks sessions for the words of a question; at most `limit`, best first. */
export function rankQuestion(
  db: Database,
  words: QuestionWord[],
  limit: number,
  scope: WordScope = {},
): QuestionSession[] {
  const bySession = new Map<number, WordHit[]>();
  words.forEach((w, i) => {
    for (const hit of wordMatches(db, w.match, i, scope)) {
      hit.score *= w.weight;
      const list = bySession.get(hit.sessionId);
      if (list) list.push(hit);
      else bySession.set(hit.sessionId, [hit]);
    }
  });
  const value = wordValues(bySession, words.length);
  const scored = [...bySession].map(([id, hits]) => scoreSession(id, hits, words, value));
  const order = (a: Scored, b: Scored) => b.score - a.score || b.sessionId - a.sessionId;
  scored.sort(order);
  const pool = scored.slice(0, TITLE_POOL);
  titleBonus(db, words, value, pool);
  pool.sort(order);
  return [...pool, ...scored.slice(TITLE_POOL)].slice(0, limit).map((s) => describe(s, words));
}

/** Where a word (or its stem) starts a word of a title; CJK anywhere. */
function titlePattern(word: string): RegExp {
  const stem = /^[a-z]+$/.test(word) ? stemmer(word) : word;
  const form = (stem.length >= 3 ? stem : word).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return hasCjk(word) ? new RegExp(form, 'u') : new RegExp(`(?<![\\p{L}\\p{N}])${form}`, 'iu');
}

const TITLES_SQL = `SELECT s.id, COALESCE(s.title, (SELECT st.first_prompt FROM session_stats st WHERE
  st.session_id = s.id)) FROM sessions s WHERE s.id IN (SELECT value FROM json_each(?))`;

/** Adds to each session the worth of the question's words its title (or first prompt) holds. */
function titleBonus(db: Database, words: QuestionWord[], value: number[], pool: Scored[]): void {
  const patterns = words.map((w) => titlePattern(w.text));
  const rows = cachedStatement(db, TITLES_SQL)
    .raw(true)
    .all(JSON.stringify(pool.map((s) => s.sessionId))) as [number, string | null][];
  const titles = new Map(rows);
  for (const s of pool) {
    const text = titles.get(s.sessionId);
    if (!text) continue;
    let bonus = 0;
    patterns.forEach((re, i) => {
      if (re.test(text)) bonus += value[i]!;
    });
    s.score += TITLE_WEIGHT * bonus;
  }
}

/** The best block of each word, from the passage where it has one; a block once; best first. */
function pickShown(passage: WordHit[], all: WordHit[]): WordHit[] {
  const best = new Map<number, WordHit>();
  for (const h of passage) if (!best.has(h.word) || h.score < best.get(h.word)!.score) best.set(h.word, h);
  const fromPassage = new Set(best.keys());
  for (const h of all) {
    if (fromPassage.has(h.word)) continue;
    if (!best.has(h.word) || h.score < best.get(h.word)!.score) best.set(h.word, h);
  }
  const seen = new Set<number>();
  return [...best.values()].filter((h) => !seen.has(h.id) && seen.add(h.id)).sort((a, b) => a.score - b.score);
}
