// Unit tests of the LLM layer's small pure parts: configuration precedence, backoff timing, Retry-After
// parsing, tolerant JSON extraction and the price table.
import { describe, expect, it } from 'vitest';
import {
  resolveLlmConfig,
  createProvider,
  parseRetryAfter,
  parseJsonReply,
  estimateCost,
  segmentSummarySchema,
} from './index.js';
import { backoffDelay } from './backoff.js';

describe('resolveLlmConfig', () => {
  it('applies flags > env > config file > defaults, per key', () => {
    const configFile = { provider: 'openai', model: 'file-model', baseUrl: 'http://127.0.0.1:11434/v1', maxCalls: 9 };
    expect(resolveLlmConfig({})).toMatchObject({
      provider: 'extractive',
      model: 'extractive-v1',
      concurrency: 4,
      origin: { provider: 'default' },
    });
    expect(resolveLlmConfig({ configFile })).toMatchObject({
      provider: 'openai',
      model: 'file-model',
      baseUrl: 'http://127.0.0.1:11434/v1',
      maxCalls: 9,
    });
    const env = {
      STRATA_LLM_PROVIDER: 'anthropic',
      STRATA_LLM_MODEL: 'claude-sonnet-4-5',
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: 'http://proxy',
    };
    expect(resolveLlmConfig({ env, configFile })).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: 'k',
      baseUrl: 'http://proxy',
      origin: { provider: 'env', model: 'env' },
    });
    expect(
      resolveLlmConfig({ flags: { provider: 'claude-cli', model: 'sonnet', maxCalls: 2 }, env, configFile }),
    ).toMatchObject({
      provider: 'claude-cli',
      model: 'sonnet',
      maxCalls: 2,
      timeoutMs: 180_000,
      noSessionPersistence: true,
      origin: { provider: 'flag', model: 'flag' },
    });
  });

  it('names the variable to set when a key is missing, and lets local OpenAI-compatible servers go keyless', () => {
    expect(() => createProvider(resolveLlmConfig({ flags: { provider: 'anthropic' } }))).toThrow(
      'set ANTHROPIC_API_KEY',
    );
    expect(() => createProvider(resolveLlmConfig({ flags: { provider: 'openai' } }))).toThrow('set OPENAI_API_KEY');
    const local = createProvider(
      resolveLlmConfig({
        flags: { provider: 'openai', model: 'llama3.1' },
        env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
      }),
    );
    expect(local).toMatchObject({ name: 'openai', model: 'llama3.1', networked: true });
  });

  it('rejects unknown providers and negative limits', () => {
    expect(() => resolveLlmConfig({ flags: { provider: 'magic' } })).toThrow(/unknown LLM provider "magic"/);
    expect(() => resolveLlmConfig({ flags: { maxCost: -1 } })).toThrow(/non-negative/);
  });
});

describe('retry timing', () => {
  const options = { baseDelayMs: 1000, maxDelayMs: 8000, maxRetryAfterMs: 60_000, random: () => 1 };
  it('grows exponentially with jitter, capped, and honours Retry-After', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, undefined, options))).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(backoffDelay(1, undefined, { ...options, random: () => 0 })).toBe(500);
    expect(backoffDelay(1, 2500, options)).toBe(2500);
    expect(backoffDelay(1, 3_600_000, options)).toBe(60_000);
  });
  it('parses Retry-After seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('JSON replies and prices', () => {
  it('extracts JSON from fences and prose and validates it', () => {
    const ok = parseJsonReply(
      'Here you go:\n```json\n{"summary":"x","topics":[],"keyEntities":[],"importanceScore":0.2}\n```',
      segmentSummarySchema,
    );
    expect(ok).toEqual({ ok: true, value: { summary: 'x', topics: [], keyEntities: [], importanceScore: 0.2 } });
    expect(
      parseJsonReply('{"summary":"x","topics":[],"keyEntities":[],"importanceScore":3}', segmentSummarySchema),
    ).toMatchObject({ ok: false, error: expect.stringContaining('importanceScore') });
    expect(parseJsonReply('no json here', segmentSummarySchema)).toMatchObject({ ok: false });
  });
  it('prices known models by prefix and flags unknown ones', () => {
    expect(estimateCost('claude-haiku-4-5-20251001', 1_000_000, 0)).toEqual({ costUsd: 1, priceKnown: true });
    expect(estimateCost('gpt-4o-mini', 0, 1_000_000)).toEqual({ costUsd: 0.6, priceKnown: true });
    expect(estimateCost('qwen2.5-coder:7b', 1000, 1000)).toEqual({ costUsd: 0, priceKnown: false });
  });
});
