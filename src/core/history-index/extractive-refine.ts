// Owns what the history index adds to the offline provider's per-segment answer, knowing the whole
// history: topics weighted by how specific they are to the segment (tf × idf over the history's turns), and
// importance spread over the range by rank, so a handful of segments stand out rather than half of them.
import { SIGNALS } from '../llm/extractive/signals.js';
import { isTemplateTerm } from '../llm/extractive/template-terms.js';
import { segmentSentences } from '../llm/extractive/text.js';
import type { HistoryCorpus } from './history-corpus.js';
import type { IndexSegment } from './types.js';

const MAX_TOPICS = 6;
const MAX_BIGRAMS = 2;
const CATEGORY_TOPICS = new Set(SIGNALS.map((s) => s.topic));
/** A term used in more than this share of the turns says nothing about one segment. */
const GENERIC_SHARE = 0.5;
const ID_LIKE = /^(?=.*\d)[0-9a-f-]{4,}$|^\d|\d.*\d.*\d/i;
/** Contractions and past-tense verbs ("i've", "based", "needed") describe the talk, not its subject. */
const NOT_A_SUBJECT = /'|^[a-z]{3,}ed$/;

/** Terms and repeated bigrams of the segment, best first by (1 + log tf) × idf over the history. */
export function specificTopics(
  content: string,
  corpus: HistoryCorpus,
  providerTopics: readonly string[] = [],
): string[] {
  const tf = new Map<string, number>();
  for (const s of segmentSentences(content)) {
    const units = [...s.terms];
    for (let i = 0; i + 1 < s.terms.length; i++)
      if (s.terms[i] !== s.terms[i + 1]) units.push(`${s.terms[i]} ${s.terms[i + 1]}`);
    for (const unit of units) tf.set(unit, (tf.get(unit) ?? 0) + 1);
  }
  const turns = Math.max(1, corpus.turns);
  const generic = (term: string): boolean => turns >= 4 && corpus.documentFrequency(term) > GENERIC_SHARE * turns;
  const scored: Array<[string, number]> = [];
  for (const [unit, count] of tf) {
    const parts = unit.split(' ');
    if (parts.some((p) => ID_LIKE.test(p) || p.length < 3)) continue;
    if (parts.length === 1 && (unit.length < 4 || (NOT_A_SUBJECT.test(unit) && unit.length > 5))) continue;
    if (parts.some((p) => p.includes("'") || isTemplateTerm(p))) continue;
    if (parts.length === 2 && count < 2) continue;
    if (parts.every(generic)) continue;
    const idf = parts.reduce((n, p) => n + corpus.idf(p), 0) / parts.length;
    scored.push([unit, (1 + Math.log(count)) * idf]);
  }
  scored.sort((a, b) => b[1] - a[1] || b[0].split(' ').length - a[0].split(' ').length || (a[0] < b[0] ? -1 : 1));
  const topics: string[] = [];
  const category = providerTopics.find((t) => CATEGORY_TOPICS.has(t));
  if (category) topics.push(category);
  let bigrams = 0;
  for (const [unit] of scored) {
    if (topics.length >= MAX_TOPICS) break;
    const parts = unit.split(' ');
    const tag = parts.join('-');
    if (topics.some((t) => t === tag || t.split('-').includes(unit))) continue;
    if (parts.length === 2) {
      if (bigrams >= MAX_BIGRAMS) continue;
      // A bigram replaces the single words it is made of.
      const at = topics.findIndex((t) => parts.includes(t));
      const rest = topics.filter((t) => !parts.includes(t));
      rest.splice(at === -1 ? rest.length : Math.min(at, rest.length), 0, tag);
      topics.splice(0, topics.length, ...rest);
      bigrams++;
    } else {
      topics.push(tag);
    }
  }
  return topics;
}

/** The provider's score plus up to 0.04 for the amount of prose, so equal scores still rank apart. */
export function rankingScore(providerScore: number, content: string): number {
  let words = 0;
  for (let i = 0; i < content.length; i++)
    if (content.charCodeAt(i) <= 32 && (i === 0 || content.charCodeAt(i - 1) > 32)) words++;
  const detail = Math.min(1, Math.log(1 + words) / Math.log(20_000));
  return Math.min(1, Math.round((providerScore + 0.04 * detail) * 1000) / 1000);
}

/**
 * Importance blends the provider's score (0.4) with the segment's rank among all segments (0.6, mapped
 * onto 0.05–0.95): equal scores are told apart by their amount of prose, then by order, so no value is
 * shared by a pile of segments and only a segment that both scores and ranks highest comes near 1.
 */
export function spreadImportance(segments: IndexSegment[]): void {
  const scored = segments.filter((s) => s.rawImportance !== undefined);
  if (scored.length < 2) return;
  const order = scored
    .map((s, i) => ({ s, i, words: s.tokenCount }))
    .sort((a, b) => a.s.rawImportance! - b.s.rawImportance! || a.words - b.words || a.i - b.i);
  order.forEach(({ s }, rank) => {
    const spread = 0.05 + (0.9 * rank) / (order.length - 1);
    s.importanceScore = Math.round((0.4 * s.rawImportance! + 0.6 * spread) * 100) / 100;
  });
}

/** Drops topics that tag more than half of the segments (when there are at least 4): they tell none apart. */
export function dropUbiquitousTopics(segments: IndexSegment[]): void {
  if (segments.length < 4) return;
  const count = new Map<string, number>();
  for (const s of segments) for (const t of new Set(s.topics)) count.set(t, (count.get(t) ?? 0) + 1);
  for (const s of segments) {
    if (s.rawImportance === undefined) continue;
    const kept = s.topics.filter((t) => (count.get(t) ?? 0) <= segments.length / 2);
    if (kept.length > 0) s.topics = kept;
  }
}
