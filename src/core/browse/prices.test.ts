import { describe, expect, it } from 'vitest';
import { estimatedCost, priceOf } from './prices.js';

describe('prices', () => {
  it('prices known Claude families and leaves others unpriced', () => {
    expect(priceOf('claude-sonnet-4-6')?.input).toBe(3);
    expect(priceOf('claude-opus-4-5-20251101')?.output).toBe(25);
    expect(priceOf('claude-opus-4-1-20250805')?.output).toBe(75);
    expect(priceOf('claude-haiku-4-5')?.input).toBe(1);
    expect(priceOf('gpt-5-codex')).toBeUndefined();
    expect(priceOf('<synthetic>')).toBeUndefined();
    expect(priceOf(null)).toBeUndefined();
  });

  it('adds input, output and cache tokens at their rates', () => {
    expect(
      estimatedCost('claude-sonnet-4-6', { input: 1e6, output: 1e6, cacheRead: 1e6, cacheWrite: 1e6 }),
    ).toBeCloseTo(3 + 15 + 0.3 + 3.75);
    expect(estimatedCost('unknown-model', { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 })).toBeUndefined();
  });
});
