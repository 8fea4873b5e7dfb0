// Owns extractive sentence ranking: TextRank over TF-IDF cosine similarity between a segment's own
// sentences, boosted by position (the opening request, message leads) and cue phrases (decisions,
// outcomes, @/ markers). Deterministic: fixed iterations, ties broken by position.
import type { Sentence } from './text.js';

const MAX_CANDIDATES = 400;
const DAMPING = 0.85;
const ITERATIONS = 40;

const OUTCOME_CUE = new RegExp(
  String.raw`\b(decided|decision|chose|choose|going with|settled on|instead of|rather than|root cause|` +
    'the (?:problem|issue|fix) (?:is|was)|fixed|resolved|implemented|added|created|' +
    'refactor(?:ed)?|migrat(?:ed|ion)|breaking|because|turns out|so we|conclusion|summary|' +
    String.raw`in short)\b`,
  'i',
);
const MARKER_CUE = /@\/[a-z]+:/i;
const FILLER = /^(?:let me|i'll|i will|now let me|great|perfect|ok|okay|sure|thanks|thank you|done|good)\b/i;

type TermVector = Map<string, number>;

function idfOf(sentences: readonly Sentence[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const s of sentences) for (const term of new Set(s.terms)) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [term, count] of df) idf.set(term, Math.log(1 + sentences.length / count));
  return idf;
}

function tfidfVector(terms: readonly string[], idf: Map<string, number>): TermVector {
  const vector: TermVector = new Map();
  for (const term of terms) vector.set(term, (vector.get(term) ?? 0) + (idf.get(term) ?? 0));
  return vector;
}

function cosine(a: TermVector, b: TermVector): number {
  if (a.size === 0 || b.size === 0) return 0;
  let dot = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [term, w] of small) {
    const other = large.get(term);
    if (other !== undefined) dot += w * other;
  }
  if (dot === 0) return 0;
  return dot / (norm(a) * norm(b));
}

function norm(v: TermVector): number {
  let sum = 0;
  for (const w of v.values()) sum += w * w;
  return Math.sqrt(sum);
}

/** Cheap pre-score used to keep very large segments at MAX_CANDIDATES sentences. */
function preScore(s: Sentence): number {
  return Math.min(s.terms.length, 20) + (OUTCOME_CUE.test(s.text) ? 10 : 0) + (MARKER_CUE.test(s.text) ? 20 : 0);
}

const URL_RE = /\bhttps?:\/\/\S+/g;
/** A chat command ("/run pytest …", "/web https://…") is an action, not a sentence about the work. */
const CHAT_COMMAND = /^\/[a-z][\w-]*(?:\s|$)/i;

/** Prose: a sane length without its links, not a chat command. */
function isProse(s: Sentence): boolean {
  if (s.text.length > 600 || CHAT_COMMAND.test(s.text)) return false;
  const withoutLinks = s.text.includes('://') ? s.text.replace(URL_RE, '').trim() : s.text;
  return withoutLinks.length >= 20;
}

/** Candidates for ranking: prose sentences with enough content words and a sane length. */
export function candidateSentences(sentences: readonly Sentence[]): Sentence[] {
  const usable = sentences.filter((s) => s.terms.length >= 3 && isProse(s));
  if (usable.length <= MAX_CANDIDATES) return usable;
  return [...usable]
    .sort((a, b) => preScore(b) - preScore(a) || a.index - b.index)
    .slice(0, MAX_CANDIDATES)
    .sort((a, b) => a.index - b.index);
}

export interface RankedSentence {
  sentence: Sentence;
  score: number;
  vector: TermVector;
}

/**
 * Pairwise cosine similarities as a flat n × n matrix. Each dot product walks the smaller vector in its
 * insertion order against a dense table of the larger one, so every sum is the one `cosine` computes.
 */
function similarityMatrix(vectors: readonly TermVector[]): Float64Array {
  const n = vectors.length;
  const ids = new Map<string, number>();
  const termIds: Int32Array[] = [];
  const termWeights: Float64Array[] = [];
  const norms = new Float64Array(n);
  for (const [k, vector] of vectors.entries()) {
    const idList = new Int32Array(vector.size);
    const weightList = new Float64Array(vector.size);
    let at = 0;
    for (const [term, w] of vector) {
      let id = ids.get(term);
      if (id === undefined) ids.set(term, (id = ids.size));
      idList[at] = id;
      weightList[at++] = w;
    }
    termIds.push(idList);
    termWeights.push(weightList);
    norms[k] = norm(vector);
  }
  const dense = new Float64Array(ids.size);
  const matrix = new Float64Array(n * n);
  for (let large = 0; large < n; large++) {
    const largeIds = termIds[large]!;
    const largeWeights = termWeights[large]!;
    for (let t = 0; t < largeIds.length; t++) dense[largeIds[t]!] = largeWeights[t]!;
    for (let small = 0; small < n; small++) {
      if (small === large) continue;
      // cosine(a, b) for a < b walks a when a.size <= b.size, else b: the same choice here.
      const a = Math.min(small, large);
      const b = Math.max(small, large);
      const walksSmall = vectors[a]!.size <= vectors[b]!.size ? a === small : b === small;
      if (!walksSmall || vectors[small]!.size === 0 || vectors[large]!.size === 0) continue;
      const smallIds = termIds[small]!;
      const smallWeights = termWeights[small]!;
      let dot = 0;
      for (let t = 0; t < smallIds.length; t++) dot += smallWeights[t]! * dense[smallIds[t]!]!;
      if (dot === 0) continue;
      const w = dot / (norms[a]! * norms[b]!);
      matrix[a * n + b] = w;
      matrix[b * n + a] = w;
    }
    for (let t = 0; t < largeIds.length; t++) dense[largeIds[t]!] = 0;
  }
  return matrix;
}

/** TextRank scores (mean 1) multiplied by position and cue boosts; best first. */
export function rankSentences(sentences: readonly Sentence[]): RankedSentence[] {
  const candidates = candidateSentences(sentences);
  const n = candidates.length;
  if (n === 0) return [];
  const idf = idfOf(candidates);
  const vectors = candidates.map((s) => tfidfVector(s.terms, idf));
  const weights = similarityMatrix(vectors);
  const outSum = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const w = weights[i * n + j]!;
      if (w > 0) {
        outSum[i]! += w;
        outSum[j]! += w;
      }
    }
  }
  let scores = new Float64Array(n).fill(1);
  let next = new Float64Array(n);
  for (let iter = 0; iter < ITERATIONS; iter++) {
    next.fill(1 - DAMPING);
    for (let j = 0; j < n; j++) {
      if (outSum[j] === 0) continue;
      const share = (DAMPING * scores[j]!) / outSum[j]!;
      const row = j * n;
      for (let i = 0; i < n; i++) {
        const w = weights[row + i]!;
        if (w > 0) next[i]! += share * w;
      }
    }
    [scores, next] = [next, scores];
  }
  const firstUserMessage = candidates.find((s) => s.role === 'user' || s.role === 'human')?.message;
  const ranked = candidates.map((sentence, i) => ({
    sentence,
    vector: vectors[i]!,
    score: scores[i]! * boost(sentence, firstUserMessage),
  }));
  return ranked.sort((a, b) => b.score - a.score || a.sentence.index - b.sentence.index);
}

function boost(s: Sentence, firstUserMessage: number | undefined): number {
  let factor = 1;
  // The request opens a segment but is not its outcome: a small lift, below what the work reports.
  if (s.message === firstUserMessage && s.offset === 0) factor += 0.15;
  else if (s.index === 0) factor += 0.4;
  else if (s.offset === 0) factor += 0.15;
  if (MARKER_CUE.test(s.text)) factor += 0.8;
  if (OUTCOME_CUE.test(s.text)) factor += 0.5;
  if (s.text.trim().endsWith('?')) factor *= 0.7;
  if (FILLER.test(s.text)) factor *= 0.6;
  if (s.text.trim().endsWith(':')) factor *= 0.6;
  return factor;
}

/** Picks up to `maxSentences` high-ranked, mutually dissimilar sentences within `maxChars`, in text order. */
export function selectSummary(ranked: readonly RankedSentence[], maxSentences = 3, maxChars = 600): Sentence[] {
  const picked: RankedSentence[] = [];
  let chars = 0;
  for (const candidate of ranked) {
    if (picked.length >= maxSentences) break;
    const length = Math.min(candidate.sentence.text.length, 280);
    if (picked.length > 0 && chars + length > maxChars) continue;
    if (picked.some((p) => cosine(p.vector, candidate.vector) > 0.5)) continue;
    picked.push(candidate);
    chars += length + 1;
  }
  return picked.map((p) => p.sentence).sort((a, b) => a.index - b.index);
}
