// Owns what the history index learns across the whole history before it summarizes one segment: in how
// many turns (prompt + reply) each line or sentence occurs (prompt templates, pasted boilerplate) and in
// how many turns each term occurs (how specific a topic is to one segment). Both tables are capped.
import { termsOf } from '../llm/extractive/text.js';

/** A line or sentence found in at least this many turns is boilerplate, not what a segment is about. */
export const REPEATED_IN_TURNS = 3;
/** Shorter lines ("Yes", "```", "Thanks!") repeat naturally and carry no template. */
const MIN_LINE_CHARS = 24;
const MAX_LINES = 2_000_000;
const MAX_TERMS = 400_000;
/** Values pack the count above the last turn seen (mod 2^24), so a turn counts a line once. */
const CONV_SPAN = 2 ** 24;

const UUID_RE = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX_ID_RE = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\b/gi;

/** Removes UUIDs and long hex ids (commit hashes, session ids): a summary or topic never quotes them. */
export function maskIds(text: string): string {
  return text.replace(UUID_RE, '').replace(HEX_ID_RE, '');
}

export function normalizeLine(line: string): string {
  return maskIds(line).replace(/\s+/g, ' ').trim().toLowerCase();
}

/** 53-bit string hash (cyrb53): collisions among a few million lines are negligible. */
function hashLine(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

function bump<K>(map: Map<K, number>, key: K, turn: number, cap: number): void {
  const packed = map.get(key);
  if (packed === undefined) {
    if (map.size < cap) map.set(key, CONV_SPAN + turn);
    return;
  }
  if (packed % CONV_SPAN === turn) return;
  map.set(key, (Math.floor(packed / CONV_SPAN) + 1) * CONV_SPAN + turn);
}

function countOf<K>(map: Map<K, number>, key: K): number {
  return Math.floor((map.get(key) ?? 0) / CONV_SPAN);
}

export class HistoryCorpus {
  private readonly lines = new Map<number, number>();
  private readonly terms = new Map<string, number>();
  /** Number of turns counted. */
  turns = 0;

  /** Counts one turn's text (prompt and reply). */
  add(text: string): void {
    const turn = this.turns++ % CONV_SPAN;
    for (const line of text.split('\n')) {
      for (const unit of unitsOf(line)) {
        const key = normalizeLine(unit);
        if (key.length >= MIN_LINE_CHARS) bump(this.lines, hashLine(key), turn, MAX_LINES);
      }
    }
    for (const term of new Set(termsOf(maskIds(text)))) bump(this.terms, term, turn, MAX_TERMS);
  }

  isRepeated(line: string): boolean {
    const key = normalizeLine(line);
    return key.length >= MIN_LINE_CHARS && countOf(this.lines, hashLine(key)) >= REPEATED_IN_TURNS;
  }

  /** Turns that use the term. */
  documentFrequency(term: string): number {
    return countOf(this.terms, term);
  }

  /** Inverse document frequency over turns: high for terms specific to few of them. */
  idf(term: string): number {
    return Math.log(1 + Math.max(1, this.turns) / Math.max(1, this.documentFrequency(term)));
  }
}

const SENTENCE_END = /(?<=[.!?])\s+(?=\S)/;

/** A line, and its sentences when it has several: boilerplate is often one sentence of a longer line. */
function unitsOf(line: string): string[] {
  const sentences = line.split(SENTENCE_END);
  return sentences.length > 1 ? [line, ...sentences] : [line];
}

/** Keeps the lines and sentences of `text` that are not boilerplate, with ids masked. */
export function withoutRepeatedLines(text: string, corpus: HistoryCorpus | undefined): string {
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    if (corpus?.isRepeated(line)) continue;
    const sentences = line.split(SENTENCE_END);
    kept.push(maskIds(sentences.length > 1 && corpus ? sentences.filter((s) => !corpus.isRepeated(s)).join(' ') : line));
  }
  return kept.join('\n');
}
