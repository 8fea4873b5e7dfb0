// Owns checking the values an adapter parsed before they are stored: a time outside any plausible range
// (a 1969 start from a negative epoch) or a token count that is not a sane count (1e308, -5, 2.5) is
// dropped from its message, which is kept; each dropped value is counted by field (ParseOutput.invalid).
import type { ParseOutput, ParsedMessage, TokenUsage } from '../../shared/model.js';

/** Times before this are no agent's (and sort before every real one); after the upper bound, not yet. */
const EARLIEST_MS = Date.UTC(2000, 0, 1);
const LATEST_MS = Date.UTC(2100, 0, 1);
/** More tokens than any single model call has used; a larger count is a bad value, not usage. */
const MAX_TOKENS = 1e9;
const TOKEN_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;

function count(out: ParseOutput, field: string): void {
  const invalid = (out.invalid ??= {});
  invalid[field] = (invalid[field] ?? 0) + 1;
}

export function validTimestamp(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= EARLIEST_MS && ms < LATEST_MS;
}

function validTokens(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_TOKENS;
}

function checkUsage(usage: TokenUsage, out: ParseOutput): void {
  for (const field of TOKEN_FIELDS) {
    if (validTokens(usage[field])) continue;
    usage[field] = 0;
    count(out, field);
  }
  if (usage.model !== undefined && typeof usage.model !== 'string') {
    delete usage.model;
    count(out, 'model');
  }
}

function checkMessage(message: ParsedMessage, out: ParseOutput): void {
  if (message.timestamp !== undefined && !validTimestamp(message.timestamp)) {
    delete message.timestamp;
    count(out, 'timestamp');
  }
  if (message.model !== undefined && typeof message.model !== 'string') {
    delete message.model;
    count(out, 'model');
  }
  if (message.usage) checkUsage(message.usage, out);
  for (const block of message.blocks) {
    if (typeof block.text === 'string') continue;
    // A text that is not a string is kept as its JSON rather than stored as whatever it was.
    block.text = block.text === undefined || block.text === null ? '' : JSON.stringify(block.text);
    count(out, 'text');
  }
}

/** Drops the bad values of every message of `out` in place, counting them in `out.invalid`. */
export function checkParsedFields(out: ParseOutput): ParseOutput {
  for (const message of out.messages) checkMessage(message, out);
  return out;
}
