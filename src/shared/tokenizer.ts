// Owns token counting: the one tokenizer module every part of strata measures budgets with.
// Uses gpt-tokenizer's o200k_base encoding (a close, offline proxy for modern model tokenizers).
// Its rank table takes ~0.4 s to load, so it is loaded on the first exact count, never at start-up.
import { createRequire } from 'node:module';
import { sep } from 'node:path';

interface O200k {
  countTokens(text: string, options?: EncodeOptions): number;
  encode(text: string, options?: EncodeOptions): number[];
  decode(tokens: number[]): string;
}
interface EncodeOptions {
  disallowedSpecial?: Set<string>;
}

/** Special tokens such as `<|endoftext|>` in user text are counted as the plain text they are. */
const PLAIN_TEXT: EncodeOptions = { disallowedSpecial: new Set() };

let encoding: O200k | undefined;
function o200k(): O200k {
  encoding ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as O200k;
  return encoding;
}

/**
 * Lets the rank tables and the merge cache go (tens of MB) once a long job has done its counting;
 * the next count loads them again. Counts never depend on it.
 */
export function releaseTokenizer(): void {
  if (!encoding) return;
  encoding = undefined;
  const require = createRequire(import.meta.url);
  const marker = `${sep}node_modules${sep}gpt-tokenizer${sep}`;
  for (const key of Object.keys(require.cache)) if (key.includes(marker)) delete require.cache[key];
}

/** Counting very large strings exactly is slow; above this size we extrapolate from a sample. */
const EXACT_LIMIT = 200_000;

/** Number of tokens in `text` (exact up to 200k characters, a sampled estimate beyond). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length <= EXACT_LIMIT) return o200k().countTokens(text, PLAIN_TEXT);
  const sample = text.slice(0, EXACT_LIMIT);
  return Math.ceil((o200k().countTokens(sample, PLAIN_TEXT) / sample.length) * text.length);
}

/**
 * A byte-level BPE never emits more tokens than the text has UTF-8 bytes, so a text at most
 * `budget` bytes long fits without loading the tokenizer.
 */
export function fitsWithoutCounting(text: string, budget: number): boolean {
  return text.length <= budget && Buffer.byteLength(text, 'utf8') <= budget;
}

/** Cheap estimate (≈4 characters a token) for hot paths where an exact count is not needed. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The longest suffix of `text` that fits in `maxTokens` tokens. */
export function tailToTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return '';
  if (fitsWithoutCounting(text, maxTokens) || countTokens(text) <= maxTokens) return text;
  const tokens = o200k().encode(text, PLAIN_TEXT);
  return o200k().decode(tokens.slice(-maxTokens));
}

/** The longest prefix of `text` that fits in `maxTokens` tokens. */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return '';
  if (fitsWithoutCounting(text, maxTokens) || countTokens(text) <= maxTokens) return text;
  const tokens = o200k().encode(text, PLAIN_TEXT);
  return o200k().decode(tokens.slice(0, maxTokens));
}
