// Owns adaptive word-level truncation: one uniform per-field word limit L chosen so that
// Σ min(words_i, L) meets a target total (never below MIN_WORD_LIMIT), and cutting text to L words
// (after skipping the first N) while keeping its original line breaks.

export const DEFAULT_TARGET_WORDS = 2000;
export const MIN_WORD_LIMIT = 6;

const WORD = /\S+/g;

/** True for the code units JavaScript's `\s` matches. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** Words (runs of non-white-space, as `/\S+/g` finds them), counted without a match object per word. */
export function countWords(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
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
 * `knownWords` (countWords of the text, when the caller has it) stops the scan at the last shown word.
 */
export function truncateWords(text: string, limit: number, skip = 0, knownWords?: number): TruncatedText {
  if (knownWords !== undefined) return truncateCounted(text, limit, skip, knownWords);
  const starts: number[] = [];
  const ends: number[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    starts.push(m.index);
    ends.push(m.index + m[0].length);
  }
  const words = starts.length;
  const from = Math.min(skip, words);
  const to = Math.min(words, from + limit);
  if (from >= to) return { text: '', words, shown: 0, truncated: false };
  const body = from === 0 && to === words ? text.trim() : text.slice(starts[from], ends[to - 1]);
  return { text: body, words, shown: to - from, truncated: to < words };
}

function truncateCounted(text: string, limit: number, skip: number, words: number): TruncatedText {
  const from = Math.min(skip, words);
  const to = Math.min(words, from + limit);
  if (from >= to) return { text: '', words, shown: 0, truncated: false };
  if (from === 0 && to === words) return { text: text.trim(), words, shown: to, truncated: false };
  let start = 0;
  let end = 0;
  let i = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text), i++) {
    if (i === from) start = m.index;
    if (i === to - 1) {
      end = m.index + m[0].length;
      break;
    }
  }
  return { text: text.slice(start, end), words, shown: to - from, truncated: to < words };
}
