// Owns topic tags for the extractive provider: category tags from the strongest signals, then content
// terms and repeated two-word phrases weighted by TF-IDF across the segment's sentences.
import type { Sentence } from './text.js';
import type { SignalHit } from './signals.js';
import { isTemplateTerm } from './template-terms.js';

const MAX_TOPICS = 7;
const MIN_TOPICS = 3;

export function topicTags(sentences: readonly Sentence[], hits: readonly SignalHit[]): string[] {
  const categories = [...hits]
    .sort(
      (a, b) =>
        b.signal.importance * Math.min(3, b.count) - a.signal.importance * Math.min(3, a.count) ||
        (a.signal.topic < b.signal.topic ? -1 : 1),
    )
    .filter((h) => h.count >= 2 || h.signal.importance >= 0.8)
    .slice(0, 2)
    .map((h) => h.signal.topic);
  const terms = weightedTerms(sentences);
  const topics: string[] = [...categories];
  for (const term of terms) {
    if (topics.length >= MAX_TOPICS) break;
    if (
      topics.some(
        (t) => t === term || t.split('-').includes(term) || term.split('-').every((part) => topics.includes(part)),
      )
    )
      continue;
    topics.push(term);
  }
  return topics.length >= MIN_TOPICS || terms.length === 0 ? topics : topics.slice(0, MAX_TOPICS);
}

/** Terms and bigrams by tf × idf over sentences, best first (ties alphabetical). */
function weightedTerms(sentences: readonly Sentence[]): string[] {
  const tf = new Map<string, number>();
  const df = new Map<string, number>();
  for (const s of sentences) {
    const units = [...s.terms];
    for (let i = 0; i + 1 < s.terms.length; i++)
      if (s.terms[i] !== s.terms[i + 1]) units.push(`${s.terms[i]} ${s.terms[i + 1]}`);
    for (const unit of units) tf.set(unit, (tf.get(unit) ?? 0) + 1);
    for (const unit of new Set(units)) df.set(unit, (df.get(unit) ?? 0) + 1);
  }
  const n = Math.max(1, sentences.length);
  const scored: Array<[string, number]> = [];
  for (const [unit, count] of tf) {
    const isBigram = unit.includes(' ');
    if (isBigram && count < 2) continue;
    if (!isBigram && unit.length < 4) continue;
    if (unit.split(' ').some(isTemplateTerm)) continue;
    const idf = Math.log(1 + n / (df.get(unit) ?? 1));
    // Centrality matters for topics: a term used across many sentences is the subject, not noise.
    const weight = count * idf * (isBigram ? 1.6 : 1) * (1 + Math.log(df.get(unit) ?? 1));
    scored.push([unit, weight]);
  }
  return scored
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([unit]) => unit.replace(' ', '-'))
    .slice(0, 30);
}
