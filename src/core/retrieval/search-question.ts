// Owns the rows a question search shows: sessions ranked by session-score.ts, each with the best blocks of
// its words (at most perSession loaded, the rest counted), the FTS expression reported, and the needle
// snippets look for (each word and the stem it matches by).
import type { Database } from 'better-sqlite3';
import { buildFtsQuery } from './fts-query.js';
import type { QuestionWord } from './question-words.js';
import type { WordScope } from './search-words.js';
import { rankQuestion } from './session-score.js';

export interface QuestionRows<T> {
  rows: T[];
  match: string;
  needle: RegExp;
  wordMatch: Map<number, { match: 'near' | 'partial'; missing: string[] }>;
}

/** Rows past the shown ones are `{ session_id }` only: they count toward their session's hits. */
export function questionRows<T extends { session_id: number }>(
  db: Database,
  words: QuestionWord[],
  options: { limit: number; perSession: number; scope: WordScope; load: (score: number, blockId: number) => T },
): QuestionRows<T> {
  const load = options.load;
  const counted = (sessionId: number) => ({ session_id: sessionId }) as T;
  const rows: T[] = [];
  const wordMatch = new Map<number, { match: 'near' | 'partial'; missing: string[] }>();
  for (const found of rankQuestion(db, words, options.limit, options.scope)) {
    if (found.match) wordMatch.set(found.sessionId, { match: found.match, missing: found.missing });
    const shown = found.shown.slice(0, options.perSession);
    for (const h of shown) rows.push(load(h.score, h.id));
    for (let i = shown.length; i < found.count; i++) rows.push(counted(found.sessionId));
  }
  const highlights = buildFtsQuery(words.map((w) => w.text).join(' ')).highlights;
  const escaped = highlights.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const match = words.map((w) => w.match).join(' OR ');
  return { rows, match, needle: new RegExp(escaped.join('|'), 'gi'), wordMatch };
}
