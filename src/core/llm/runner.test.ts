// LlmRunner against a real HTTP server and a real store: the response cache (a re-run makes zero
// requests), the spend guard (stops at N calls / at a cost, keeps partial results) and bounded
// concurrency (the server never sees more than N requests in flight).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../store/db.js';
import {
  LlmRunner,
  createStoreCache,
  buildSegmentSummaryRequest,
  LlmBudgetError,
  SUMMARY_TEMPLATE_VERSION,
} from './index.js';
import { createOpenAiProvider } from './providers/openai.js';
import { startScriptedServer, type ScriptedServer } from '../../../test/support/llm-scripted-server.js';

const JSON_REPLY = '{"summary":"S.","topics":["t"],"keyEntities":[],"importanceScore":0.5}';
let server: ScriptedServer;
let dir: string;
let store: Store;

beforeAll(async () => {
  server = await startScriptedServer();
  dir = mkdtempSync(join(tmpdir(), 'strata-llm-runner-'));
  store = openStore(join(dir, 'strata.db'));
});
afterAll(async () => {
  store.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
  server.script([], { kind: 'ok', text: JSON_REPLY });
});

const provider = (model = 'gpt-4o-mini') => createOpenAiProvider({ model, apiKey: 'k', baseUrl: `${server.url}/v1` });
const segments = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) =>
    buildSegmentSummaryRequest({ segmentId: `${tag}-${i}`, content: `user: segment ${tag} ${i} about the parser` }),
  );

describe('response cache in the store', () => {
  it('answers a re-run over unchanged input from the cache with zero requests', async () => {
    const first = new LlmRunner({ provider: provider(), cache: createStoreCache(store.db) });
    const one = await first.map(segments(5, 'cache'));
    expect(one.results.every((r) => r?.source === 'model')).toBe(true);
    expect(server.requests).toHaveLength(5);

    server.requests.length = 0;
    const second = new LlmRunner({ provider: provider(), cache: createStoreCache(store.db) });
    const two = await second.map(segments(5, 'cache'));
    expect(server.requests).toHaveLength(0);
    expect(two.results.map((r) => r?.source)).toEqual(['cache', 'cache', 'cache', 'cache', 'cache']);
    expect(two.results[0]?.json).toEqual(JSON.parse(JSON_REPLY));
    expect(second.stats()).toMatchObject({ calls: 0, cacheHits: 5, estimatedCostUsd: 0 });

    const rows = store.db.prepare('SELECT provider, model, template_version FROM llm_cache').all();
    expect(rows).toContainEqual({
      provider: 'openai',
      model: 'gpt-4o-mini',
      template_version: SUMMARY_TEMPLATE_VERSION,
    });
  });

  it('keys the cache by model and prompt: another model or changed input calls again', async () => {
    await new LlmRunner({ provider: provider(), cache: createStoreCache(store.db) }).map(segments(2, 'key'));
    server.requests.length = 0;
    await new LlmRunner({ provider: provider('gpt-4.1-mini'), cache: createStoreCache(store.db) }).map(
      segments(2, 'key'),
    );
    expect(server.requests).toHaveLength(2);
    server.requests.length = 0;
    await new LlmRunner({ provider: provider(), cache: createStoreCache(store.db) }).map(segments(2, 'key-changed'));
    expect(server.requests).toHaveLength(2);
  });
});

describe('spend guard', () => {
  it('stops at maxCalls, keeps the finished results and reports BUDGET', async () => {
    const runner = new LlmRunner({ provider: provider(), maxCalls: 3, concurrency: 2 });
    const outcome = await runner.map(segments(8, 'budget'));
    expect(server.requests).toHaveLength(3);
    expect(outcome.results.filter(Boolean)).toHaveLength(3);
    expect(outcome.results.slice(0, 3).every((r) => r?.json?.summary === 'S.')).toBe(true);
    expect(outcome.budget).toBeInstanceOf(LlmBudgetError);
    expect(outcome.budget?.code).toBe('BUDGET');
    expect(outcome.budget?.limit).toBe('maxCalls');
    expect(outcome.budget?.message).toMatch(/--max-calls 3\) was reached after 3 calls/);
    expect(outcome.failures).toEqual([]);
    expect(outcome.stats).toMatchObject({ calls: 3, budgetStopped: 'maxCalls' });
    await expect(runner.complete(segments(1, 'after')[0]!)).rejects.toBeInstanceOf(LlmBudgetError);
  });

  it('stops before a call that could pass maxCost, counting retries as calls', async () => {
    // gpt-4o-mini: each call spends ~$0.0006 (1000 output tokens); before a call the guard adds the worst case
    // (the prompt plus maxTokens = 1000 output tokens): two calls fit under $0.0015, a third could not.
    server.script([], { kind: 'ok', text: JSON_REPLY, inputTokens: 100, outputTokens: 1000 });
    const runner = new LlmRunner({ provider: provider(), maxCost: 0.0015, concurrency: 1 });
    const outcome = await runner.map(segments(5, 'cost'));
    expect(outcome.budget?.limit).toBe('maxCost');
    expect(server.requests).toHaveLength(2);
    expect(outcome.results.filter(Boolean)).toHaveLength(2);
    expect(outcome.stats.estimatedCostUsd).toBeLessThanOrEqual(0.0015);
    expect(outcome.stats.priceKnown).toBe(true);
  });

  it('flags unknown prices instead of guessing', async () => {
    const runner = new LlmRunner({ provider: provider('my-local-llama') });
    await runner.complete(segments(1, 'unknown')[0]!);
    expect(runner.stats()).toMatchObject({ calls: 1, estimatedCostUsd: 0, priceKnown: false });
  });
});

describe('bounded concurrency', () => {
  it('never has more than N requests in flight', async () => {
    server.script([], { kind: 'ok', text: JSON_REPLY, delayMs: 60 });
    const before = server.maxInFlight();
    expect(before).toBeLessThanOrEqual(4);
    const runner = new LlmRunner({ provider: provider(), concurrency: 3 });
    const progress: number[] = [];
    const outcome = await runner.map(segments(10, 'conc'), (p) => progress.push(p.done));
    expect(outcome.results.filter(Boolean)).toHaveLength(10);
    expect(server.maxInFlight()).toBe(3);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('bounds direct concurrent complete() calls too', async () => {
    const fresh = await startScriptedServer();
    try {
      fresh.script([], { kind: 'ok', text: 'x', delayMs: 60 });
      const runner = new LlmRunner({
        provider: createOpenAiProvider({ model: 'gpt-4o-mini', apiKey: 'k', baseUrl: `${fresh.url}/v1` }),
        concurrency: 2,
      });
      await Promise.all(Array.from({ length: 6 }, (_, i) => runner.complete({ prompt: `p${i}`, maxTokens: 5 })));
      expect(fresh.requests).toHaveLength(6);
      expect(fresh.maxInFlight()).toBe(2);
    } finally {
      await fresh.close();
    }
  });
});
