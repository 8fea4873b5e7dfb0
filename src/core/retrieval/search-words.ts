// Owns matching a multi-word question word by word, for the sessions whose blocks do not hold every word:
// a message says "installation script", its call runs flow-install-global.sh, the result says
// "Permission denied". Sessions holding every word within a few messages come first (by BM25),
// then the rest by BM25 summed over the words they hold (the best block per word), so a question with one
// word that is in no text still finds its session. Each word ranks at most its newest RANK_WINDOW matches.
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../../store/statement-cache.js';
import { SEARCHED_NOISE_SQL, blockWeightSql } from './selectors.js';

/** All words within this many messages of one another count as one passage ("near"). */
export const NEAR_MESSAGES = 6;

/** Matches per word that are ranked (the newest ones), as for an unfiltered block query. */
const WORD_WINDOW = 1000;

export interface WordHit {
  id: number;
  sessionId: number;
  seq: number;
  score: number;
  /** Index of the word this block matched (in the question's order). */
  word: number;
}

export interface WordSession {
  sessionId: number;
  /** 'near': every word within NEAR_MESSAGES messages; 'partial': some words missing or far apart. */
  match: 'near' | 'partial';
  /** Words of the question the session does not hold. */
  missing: string[];
  /** Blocks to show, best first: the best block of each word (in the nearest passage when 'near'). */
  shown: WordHit[];
  /** Blocks matching any word. */
  count: number;
  rank: number;
}

export interface WordScope {
  /** SQL over b (blocks), m (messages), s (sessions), and its parameters; undefined: the default scope. */
  where?: { sql: string; params: unknown[] };
}

export function wordMatches(db: Database, match: string, word: number, scope: WordScope): WordHit[] {
  const weight = blockWeightSql('b');
  const rows = scope.where
    ? cachedStatement(
        db,
        `SELECT b.id, m.session_id, m.seq, bm25(blocks_fts) * ${weight} AS score
        FROM blocks_fts JOIN blocks b ON b.id = blocks_fts.rowid JOIN messages m ON m.id = b.message_id JOIN
          sessions s ON s.id = m.session_id
        WHERE blocks_fts MATCH ? AND ${scope.where.sql} ORDER BY b.id DESC LIMIT ${WORD_WINDOW}`,
      )
        .raw(true)
        .all(match, ...scope.where.params)
    : cachedStatement(
        db,
        `SELECT w.id, m.session_id, m.seq, w.bm * ${weight} AS score
        FROM (SELECT rowid AS id, bm25(blocks_fts) AS bm FROM blocks_fts WHERE blocks_fts MATCH ? ORDER BY rowid
          DESC LIMIT ${WORD_WINDOW}) w
        JOIN blocks b INDEXED BY blocks_hit ON b.id = w.id JOIN messages m INDEXED BY messages_hit ON
          m.id = b.message_id WHERE b.noise IS NULL OR b.noise IN (${SEARCHED_NOISE_SQL})`,
      )
        .raw(true)
        .all(match);
  return (rows as [number, number, number, number][]).map(([id, sessionId, seq, score]) => ({
    id,
    sessionId,
    seq,
    score,
    word,
  }));
}

/** The best block of each word (lowest BM25 score is best), among `hits`; a block once. */
function bestPerWord(hits: WordHit[]): WordHit[] {
  const best = new Map<number, WordHit>();
  for (const h of hits) {
    const b = best.get(h.word);
    if (!b || h.score < b.score) best.set(h.word, h);
  }
  const seen = new Set<number>();
  return [...best.values()].filter((h) => !seen.has(h.id) && seen.add(h.id));
}

/** The shortest run of messages holding every word (hits sorted by seq), or undefined. */
function nearestPassage(hits: WordHit[], words: number): { span: number; hits: WordHit[] } | undefined {
  const counts = new Array<number>(words).fill(0);
  let have = 0;
  let best: { span: number; from: number; to: number } | undefined;
  for (let lo = 0, hi = 0; hi < hits.length; hi++) {
    if (counts[hits[hi]!.word]!++ === 0) have++;
    while (have === words) {
      const span = hits[hi]!.seq - hits[lo]!.seq;
      if (!best || span < best.span) best = { span, from: lo, to: hi };
      if (--counts[hits[lo]!.word]! === 0) have--;
      lo++;
    }
  }
  return best && best.span <= NEAR_MESSAGES ? { span: best.span, hits: hits.slice(best.from, best.to + 1) } : undefined;
}

/**
 * Ranks sessions by the words of a question (each word's FTS expression in `words`), skipping sessions
 * in `exclude` (already found with every word in one block). Returns at most `limit` sessions, best first.
 */
export function rankByWords(
  db: Database,
  words: { text: string; match: string }[],
  exclude: Set<number>,
  limit: number,
  scope: WordScope = {},
): WordSession[] {
  const bySession = new Map<number, WordHit[]>();
  words.forEach((w, i) => {
    for (const hit of wordMatches(db, w.match, i, scope)) {
      if (exclude.has(hit.sessionId)) continue;
      const list = bySession.get(hit.sessionId);
      if (list) list.push(hit);
      else bySession.set(hit.sessionId, [hit]);
    }
  });
  const near: (WordSession & { span: number })[] = [];
  const partial: WordSession[] = [];
  for (const [sessionId, hits] of bySession) {
    hits.sort((a, b) => a.seq - b.seq || a.word - b.word);
    const passage = nearestPassage(hits, words.length);
    const held = new Set(hits.map((h) => h.word));
    const missing = words.filter((_, i) => !held.has(i)).map((w) => w.text);
    const shown = bestPerWord(passage ? passage.hits : hits).sort((a, b) => a.score - b.score);
    const rank = shown.reduce((sum, h) => sum + h.score, 0);
    const count = new Set(hits.map((h) => h.id)).size;
    if (passage) near.push({ sessionId, match: 'near', missing, shown, count, rank, span: passage.span });
    else partial.push({ sessionId, match: 'partial', missing, shown, count, rank });
  }
  near.sort((a, b) => a.rank - b.rank || a.span - b.span);
  partial.sort((a, b) => a.rank - b.rank);
  return [...near.map(({ span: _span, ...s }) => s), ...partial].slice(0, limit);
}
