// Owns correcting the mistyped words of a question (never of keywords or explicit syntax): a word of
// letters that matches no block in any of its forms is replaced by the index's nearest spelling of it
// (typo-terms.ts), weighted a little below a word typed right; a correction to a stop word drops the word
// as the stop word would be.
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../../store/statement-cache.js';
import { type CommonWord, toMatch } from './fts-query.js';
import { type QuestionWord, STOP_WORDS } from './question-words.js';
import { MIN_WORD, nearestTerm } from './typo-terms.js';

/** What a corrected word is worth beside the same word typed right: the guess may be wrong. */
export const CORRECTED_WEIGHT = 0.8;

export interface Correction {
  /** The word as typed (lower-cased). */
  from: string;
  /** The index's spelling searched instead. */
  to: string;
}

export interface CorrectedQuestion {
  words: QuestionWord[];
  corrections: Correction[];
}

/** Each word of letters that matches nothing, replaced by the nearest term of the index (if any). */
export function correctQuestion(db: Database, words: QuestionWord[], common?: CommonWord): CorrectedQuestion {
  const any = cachedStatement(db, 'SELECT 1 FROM blocks_fts WHERE blocks_fts MATCH ? LIMIT 1').pluck(true);
  const out: QuestionWord[] = [];
  const corrections: Correction[] = [];
  const texts = new Set(words.map((w) => w.text));
  for (const word of words) {
    if (word.text.length < MIN_WORD || !/^[a-z]+$/.test(word.text) || any.get(word.match) !== undefined) {
      out.push(word);
      continue;
    }
    const near = nearestTerm(db, word.text);
    if (!near) {
      out.push(word);
      continue;
    }
    // A stop word mistyped is dropped as the stop word would be, unlisted.
    if (STOP_WORDS.has(near.term)) continue;
    corrections.push({ from: word.text, to: near.term });
    if (texts.has(near.term)) continue;
    texts.add(near.term);
    out.push({
      text: near.term,
      match: toMatch({ kind: 'term', text: near.term, phrase: false }, common),
      weight: word.weight * CORRECTED_WEIGHT,
    });
  }
  return { words: out, corrections };
}
