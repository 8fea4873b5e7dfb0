// Owns token counting: the one tokenizer module every part of strata measures budgets with.
// Uses gpt-tokenizer's o200k_base encoding (a close, offline proxy for modern model tokenizers).
import { createRequire } from 'node:module';
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';

// Loaded on first use: its rank table costs ~70 MB and most of a second to load, which a command or
// server that never counts tokens should not pay.
let encoding: typeof O200k | undefined;
function o200k(): typeof O200k {
  encoding ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as typeof O200k;
  return encoding;
}

/** Counting very large strings exactly is slow; above this size we extrapolate from a sample. */
const EXACT_LIMIT = 200_000;

/** Number of tokens in `text` (exact up to 200k characters, a sampled estimate beyond). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length <= EXACT_LIMIT) return o200k().countTokens(text);
  const sample = text.slice(0, EXACT_LIMIT);
  return Math.ceil((o200k().countTokens(sample) / sample.length) * text.length);
}

/** Cheap estimate (≈4 characters a token) for hot paths where an exact count is not needed. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The longest prefix of `text` that fits in `maxTokens` tokens. */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return '';
  if (countTokens(text) <= maxTokens) return text;
  const { encode, decode } = o200k();
  return decode(encode(text).slice(0, maxTokens));
}

export const TOKENIZER_NAME = 'o200k_base';
