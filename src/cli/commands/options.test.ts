import { describe, expect, it } from 'vitest';
import { MAX_COUNT, parseNonNegativeInt, parseNonNegativeNumber, parsePositiveInt } from './options.js';
import { StrataError } from '../../shared/errors.js';

function usageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StrataError);
    expect((error as StrataError).exitCode).toBe(2);
    return (error as StrataError).message;
  }
  throw new Error('expected a usage error');
}

describe('option parsers', () => {
  it('accepts plain positive integers', () => {
    expect(parsePositiveInt('1', '--limit')).toBe(1);
    expect(parsePositiveInt(' 42 ', '--limit')).toBe(42);
    expect(parsePositiveInt(String(MAX_COUNT), '--limit')).toBe(MAX_COUNT);
  });

  it('refuses 0, fractions, exponents, signs and huge values with one line naming the option', () => {
    for (const bad of ['0', '1.5', '1e19', '1e3', '-1', '0x10', '', 'ten', 'Infinity']) {
      expect(usageOf(() => parsePositiveInt(bad, '--limit'))).toMatch(/^--limit must be a positive integer/);
    }
    expect(usageOf(() => parsePositiveInt('99999999999999999999', '-k'))).toMatch(/^-k must be at most/);
    expect(usageOf(() => parsePositiveInt(String(MAX_COUNT + 1), '-k'))).toMatch(/^-k must be at most/);
  });

  it('lets non-negative options take 0 but nothing negative or fractional', () => {
    expect(parseNonNegativeInt('0', '--skip')).toBe(0);
    expect(usageOf(() => parseNonNegativeInt('-3', '--skip'))).toMatch(/non-negative integer/);
    expect(parseNonNegativeNumber('0.5', '--max-cost')).toBe(0.5);
    expect(parseNonNegativeNumber('0', '--max-cost')).toBe(0);
    for (const bad of ['-1', 'NaN', '1e400', 'abc', ''])
      expect(usageOf(() => parseNonNegativeNumber(bad, '--max-cost'))).toMatch(/--max-cost/);
  });
});
