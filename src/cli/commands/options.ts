// Owns the option parsers every command shares: agent lists, counts, amounts. A bad value is one
// usage error (exit 2) naming the option and the value; no value ever reaches SQL unchecked.
import { AGENTS, type AgentName } from '../../shared/model.js';
import { usageError } from '../../shared/errors.js';

/** Largest count any option accepts: far above any real use, and still an exact integer for SQLite. */
export const MAX_COUNT = 1_000_000_000;

export function parseAgentList(value: string | undefined): AgentName[] | undefined {
  if (!value) return undefined;
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(AGENTS as readonly string[]).includes(name))
      throw usageError(`unknown agent "${name}"; known agents: ${AGENTS.join(', ')}`);
  }
  return names as AgentName[];
}

function parseCount(value: string, name: string, min: number, max: number): number {
  const text = String(value).trim();
  // Digits only: "1e3", "0x10", "2.0" and "-1" are refused rather than guessed at.
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  const kind = min === 0 ? 'a non-negative integer' : 'a positive integer';
  if (Number.isNaN(n) || n < min) throw usageError(`${name} must be ${kind}, got "${value}"`);
  if (n > max) throw usageError(`${name} must be at most ${max}, got "${value}"`);
  return n;
}

/** An integer ≥ 1 (0, fractions, exponents and values above `max` are usage errors). */
export function parsePositiveInt(value: string, name = 'value', max = MAX_COUNT): number {
  return parseCount(value, name, 1, max);
}

/** An integer ≥ 0, for offsets and context widths where 0 means "none". */
export function parseNonNegativeInt(value: string, name = 'value', max = MAX_COUNT): number {
  return parseCount(value, name, 0, max);
}

/** A finite number ≥ 0 (amounts such as a cost limit in USD). */
export function parseNonNegativeNumber(value: string, name = 'value'): number {
  const text = String(value).trim();
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1e12)
    throw usageError(`${name} must be a non-negative number, got "${value}"`);
  return n;
}

/** A commander argument parser for `parsePositiveInt` (`.option('--n <n>', '…', positiveInt('--n'))`). */
export function positiveInt(name: string, max = MAX_COUNT): (value: string) => number {
  return (value: string) => parsePositiveInt(value, name, max);
}
