// Owns what the history index learns across the whole history before it summarizes one segment: in how
// many turns (prompt + reply) each line or sentence occurs (prompt templates, pasted boilerplate) and in
// how many turns each term occurs (how specific a topic is to one segment). Both tables are capped.
import { termsOf } from '../llm/extractive/text.js';

/** A line or sentence found in at least this many turns is boilerplate, not what a segment is about. */
export const REPEATED_IN_TURNS = 3;
/** Shorter lines ("Yes", "```", "Thanks!") repeat naturally and carry no template. */
const MIN_LINE_CHARS = 24;
const MAX_TERMS = 400_000;
/** Line table slots (two Uint32Arrays, 16 MiB at most); new lines stop being counted at 70% load. */
const MAX_LINE_SLOTS = 1 << 21;
/** Values pack the count above the last turn seen (mod 2^24), so a turn counts a line once. */
const CONV_SPAN = 2 ** 24;

const UUID_RE = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX_ID_RE = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\b/gi;

/** Removes UUIDs and long hex ids (commit hashes, session ids): a summary or topic never quotes them. */
export function maskIds(text: string): string {
  return text.replace(UUID_RE, '').replace(HEX_ID_RE, '');
}

/** Markdown marks, a list bullet and closing punctuation vary between copies of the same boilerplate. */
export function normalizeLine(line: string): string {
  return maskIds(line)
    .replace(/[*_`#>]+/g, '')
    .replace(/^\s*(?:[-+•]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?:;,]+$/, '')
    .toLowerCase();
}

/** Units at least this long also count by their opening: a reply cut off mid-sentence still matches. */
const HEAD_CHARS = 60;

function headKey(key: string): string {
  return `head\u0000${key.slice(0, HEAD_CHARS)}`;
}

/** 32-bit FNV-1a, never 0 (0 marks an empty slot). */
function hashLine(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0 || 1;
}

/**
 * Open-addressing table: line hash → (turns counted, saturating at 255) << 24 | last turn (mod 2^24).
 * Typed arrays cost 8 bytes a line where a Map costs ~60.
 */
class LineCounts {
  private keys = new Uint32Array(1 << 16);
  private values = new Uint32Array(1 << 16);
  private size = 0;

  bump(hash: number, turn: number): void {
    let slot = this.find(hash);
    if (this.keys[slot] === 0) {
      if (this.size >= this.keys.length * 0.7) {
        if (this.keys.length >= MAX_LINE_SLOTS) return;
        this.grow();
        slot = this.find(hash);
      }
      this.keys[slot] = hash;
      this.values[slot] = (1 << 24) | (turn & 0xffffff);
      this.size++;
      return;
    }
    const value = this.values[slot]!;
    if ((value & 0xffffff) === (turn & 0xffffff)) return;
    const count = Math.min(255, (value >>> 24) + 1);
    this.values[slot] = ((count << 24) | (turn & 0xffffff)) >>> 0;
  }

  count(hash: number): number {
    const slot = this.find(hash);
    return this.keys[slot] === 0 ? 0 : this.values[slot]! >>> 24;
  }

  private find(hash: number): number {
    const mask = this.keys.length - 1;
    let slot = hash & mask;
    while (this.keys[slot] !== 0 && this.keys[slot] !== hash) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.values = new Uint32Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === 0) continue;
      const slot = this.find(keys[i]!);
      this.keys[slot] = keys[i]!;
      this.values[slot] = values[i]!;
    }
  }
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
  private readonly lines = new LineCounts();
  private readonly terms = new Map<string, number>();
  /** Number of turns counted. */
  turns = 0;

  /** Counts one turn's text (prompt and reply). */
  add(text: string): void {
    const turn = this.turns++ % CONV_SPAN;
    for (const line of text.split('\n')) {
      for (const unit of unitsOf(line)) {
        const key = normalizeLine(unit);
        if (key.length >= MIN_LINE_CHARS) this.lines.bump(hashLine(key), turn);
        if (key.length >= HEAD_CHARS) this.lines.bump(hashLine(headKey(key)), turn);
      }
    }
    for (const term of new Set(termsOf(maskIds(text)))) bump(this.terms, term, turn, MAX_TERMS);
  }

  isRepeated(line: string): boolean {
    const key = normalizeLine(line);
    if (key.length < MIN_LINE_CHARS) return false;
    if (this.lines.count(hashLine(key)) >= REPEATED_IN_TURNS) return true;
    return key.length >= HEAD_CHARS && this.lines.count(hashLine(headKey(key))) >= REPEATED_IN_TURNS;
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
    kept.push(
      maskIds(sentences.length > 1 && corpus ? sentences.filter((s) => !corpus.isRepeated(s)).join(' ') : line),
    );
  }
  return kept.join('\n');
}
