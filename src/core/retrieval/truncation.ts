// Owns adaptive word-level truncation: one uniform per-field word limit L chosen so that
// Σ min(words_i, L) meets a target total (never below MIN_WORD_LIMIT), and cutting text to L words
// (after skipping the first N) while keeping its original line breaks.

export const DEFAULT_TARGET_WORDS = 2000;
export const MIN_WORD_LIMIT = 6;

/**
 * A run of Chinese, Japanese or Korean text has no spaces: every CJK_CHARS_PER_WORD characters of it count
 * as one word (a Chinese word averages about two characters), so such text is cut fairly, not whole.
 */
export const CJK_CHARS_PER_WORD = 2;

/** Hiragana, Katakana, CJK ideographs (+ext A, compatibility), Hangul syllables (as store/fts-text.ts). */
function isCjk(c: number): boolean {
  return (
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xac00 && c <= 0xd7af)
  );
}

/** True for the code units JavaScript's `\s` matches. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * Walks the words of `text` (runs of non-white-space; CJK runs in pieces of CJK_CHARS_PER_WORD characters)
 * and returns where word `from` starts and word `to - 1` ends, or the count of words when `to` is Infinity.
 */
function walk(text: string, from: number, to: number): { start: number; end: number; words: number } {
  let k = -1;
  let inWord = false;
  let cjk = 0;
  let start = 0;
  let lastEnd = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      inWord = false;
      cjk = 0;
      continue;
    }
    let starts: boolean;
    if (isCjk(c)) {
      inWord = false;
      starts = cjk % CJK_CHARS_PER_WORD === 0;
      cjk++;
    } else {
      cjk = 0;
      starts = !inWord;
      inWord = true;
    }
    if (starts) {
      k++;
      if (k === to) return { start, end: lastEnd, words: k };
      if (k === from) start = i;
    }
    lastEnd = i + 1;
  }
  return { start, end: lastEnd, words: k + 1 };
}

const HAS_CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
const WORD = /\S+/g;

/**
 * Words in a text (see walk: CJK characters count CJK_CHARS_PER_WORD to a word). Text without CJK is
 * counted by the regex engine (`test` allocates no match), several times faster than walking it in
 * JavaScript that has not been optimised yet, as in a fresh process.
 */
export function countWords(text: string): number {
  if (HAS_CJK.test(text)) return walk(text, -1, Infinity).words;
  WORD.lastIndex = 0;
  let words = 0;
  while (WORD.test(text)) words++;
  return words;
}

/**
 * The uniform limit L with Σ min(count_i, L) ≤ target (as close as whole words allow), or Infinity when
 * everything fits. Example: counts 20, 50, 100 and target 100 give 40 (20 + 40 + 40 = 100).
 */
export function computeUniformLimit(counts: number[], target: number, min = MIN_WORD_LIMIT): number {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total <= target) return Infinity;
  const sorted = [...counts].sort((a, b) => a - b);
  let remaining = target;
  for (let i = 0; i < sorted.length; i++) {
    const limit = Math.floor(remaining / (sorted.length - i));
    if (sorted[i]! >= limit) return Math.max(min, limit);
    remaining -= sorted[i]!;
  }
  return Infinity;
}

export interface TruncatedText {
  text: string;
  /** Words in the original text. */
  words: number;
  /** Words shown. */
  shown: number;
  /** True when words remain after the shown ones. */
  truncated: boolean;
}

/**
 * Skips the first `skip` words, then keeps at most `limit` words; the original spacing is preserved.
 * `knownWords` (countWords of the text, when the caller has it) saves counting the text again.
 */
export function truncateWords(text: string, limit: number, skip = 0, knownWords?: number): TruncatedText {
  const words = knownWords ?? countWords(text);
  const from = Math.min(skip, words);
  const to = Math.min(words, from + limit);
  if (from >= to) return { text: '', words, shown: 0, truncated: false };
  if (from === 0 && to === words) return { text: text.trim(), words, shown: to, truncated: false };
  const { start, end } = walk(text, from, to);
  return { text: text.slice(start, end), words, shown: to - from, truncated: to < words };
}
