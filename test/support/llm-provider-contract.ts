// Owns the provider contract suite: the behaviour every provider must show against a scripted backend
// (success, JSON shapes, 429 + Retry-After, 500 then success, timeout, malformed JSON, empty reply),
// both on its own and through LlmRunner. Each provider's test calls describeProviderContract. A real agent
// CLI costs seconds per call: with `oneCallPerCheck` each check makes one call and asserts the error kind
// the runner acts on; the runner's retries, repair and fallback are checked on the cheap providers.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { z } from 'zod';
import type { LlmProvider } from '../../src/core/llm/types.js';
import { LlmProviderError } from '../../src/core/llm/errors.js';
import { LlmRunner } from '../../src/core/llm/runner.js';
import { buildSegmentSummaryRequest } from '../../src/core/llm/prompts.js';

export type ContractStep =
  | { kind: 'ok'; text: string; delayMs?: number; inputTokens?: number; outputTokens?: number }
  | { kind: 'rate-limit'; retryAfterSec: number }
  | { kind: 'server-error' }
  | { kind: 'slow'; delayMs: number; text?: string }
  | { kind: 'empty' };

export interface ContractBackend {
  provider: LlmProvider;
  /** Queues the backend's next answers, in order. */
  script(steps: ContractStep[]): void;
  /** Requests (or processes) the backend has seen so far. */
  requestCount(): number;
  /** True when the transport carries Retry-After (HTTP providers). */
  supportsRetryAfter: boolean;
  /** Per-call timeout of the answering checks (default 5 s; a real agent CLI needs longer). */
  callTimeoutMs?: number;
  close(): Promise<void>;
}

const SEGMENT =
  'user: The build fails on Node 18.\nassistant: We decided to drop Node 18 because `structuredClone` is missing ' +
  'there. I updated package.json.';

export interface ContractOptions {
  /** One provider call per check: no runner retries, repairs or second JSON shape (see the header). */
  oneCallPerCheck?: boolean;
}

/** The provider's error for one call of the scripted `steps`. */
async function failure(backend: ContractBackend, prompt: string, timeoutMs: number): Promise<LlmProviderError> {
  const error = await backend.provider.complete({ prompt, maxTokens: 20 }, { timeoutMs }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LlmProviderError);
  expect((error as LlmProviderError).message).toMatch(new RegExp(`^${backend.provider.name}: [^\\n]+$`));
  return error as LlmProviderError;
}

export function describeProviderContract(
  name: string,
  start: () => Promise<ContractBackend>,
  { oneCallPerCheck = false }: ContractOptions = {},
): void {
  describe(`provider contract: ${name}`, () => {
    let backend: ContractBackend;
    let timeoutMs = 5000;
    const sleeps: number[] = [];
    const runner = (extra: Partial<ConstructorParameters<typeof LlmRunner>[0]> = {}): LlmRunner =>
      new LlmRunner({
        provider: backend.provider,
        sleep: async (ms) => void sleeps.push(ms),
        random: () => 0.5,
        timeoutMs,
        ...extra,
      });
    beforeAll(async () => {
      backend = await start();
      timeoutMs = backend.callTimeoutMs ?? timeoutMs;
    });
    afterAll(async () => {
      await backend.close();
    });

    it('answers a plain prompt with text, usage and a provider name', async () => {
      backend.script([{ kind: 'ok', text: 'Hello there', inputTokens: 21, outputTokens: 3 }]);
      const reply = await backend.provider.complete(
        { system: 'Be brief.', prompt: 'Say hello', maxTokens: 20 },
        { timeoutMs },
      );
      expect(reply.text).toBe('Hello there');
      expect(reply.provider).toBe(backend.provider.name);
      expect(reply.usage.outputTokens).toBe(3);
      expect(reply.costUsd).toBeGreaterThan(0);
    });

    it('parses a JSON reply against a zod shape and against a JSON Schema', async () => {
      backend.script([
        { kind: 'ok', text: '```json\n{"answer": 42}\n```' },
        { kind: 'ok', text: 'Sure: {"answer": 7}' },
      ]);
      const zodReply = await backend.provider.complete(
        { prompt: 'json', maxTokens: 50, json: z.object({ answer: z.number() }) },
        { timeoutMs },
      );
      expect(zodReply.json).toEqual({ answer: 42 });
      if (oneCallPerCheck) return;
      const schemaReply = await backend.provider.complete(
        {
          prompt: 'json',
          maxTokens: 50,
          json: { type: 'object', required: ['answer'], properties: { answer: { type: 'integer' } } },
        },
        { timeoutMs },
      );
      expect(schemaReply.json).toEqual({ answer: 7 });
    });

    it('retries a rate-limited call (429) and honours Retry-After', async () => {
      if (oneCallPerCheck) {
        backend.script([{ kind: 'rate-limit', retryAfterSec: 2 }]);
        const error = await failure(backend, 'p429', timeoutMs);
        expect(error.kind).toBe('rate_limit');
        expect(error.retryable).toBe(true);
        return;
      }
      sleeps.length = 0;
      const before = backend.requestCount();
      backend.script([
        { kind: 'rate-limit', retryAfterSec: 2 },
        { kind: 'ok', text: 'after the wait' },
      ]);
      const r = runner();
      const reply = await r.complete({ prompt: 'p429', maxTokens: 20 });
      expect(reply.text).toBe('after the wait');
      expect(backend.requestCount() - before).toBe(2);
      expect(r.stats()).toMatchObject({ calls: 2, retries: 1 });
      expect(sleeps).toHaveLength(1);
      if (backend.supportsRetryAfter) expect(sleeps[0]).toBe(2000);
    });

    it('retries a server error (500) with backoff, then succeeds', async () => {
      if (oneCallPerCheck) {
        backend.script([{ kind: 'server-error' }]);
        const error = await failure(backend, 'p500', timeoutMs);
        expect(error.kind).toBe('server');
        expect(error.retryable).toBe(true);
        return;
      }
      sleeps.length = 0;
      backend.script([{ kind: 'server-error' }, { kind: 'ok', text: 'recovered' }]);
      const r = runner({ baseDelayMs: 1000 });
      const reply = await r.complete({ prompt: 'p500', maxTokens: 20 });
      expect(reply.text).toBe('recovered');
      expect(sleeps).toEqual([750]); // base 1000 · 2^0 · jitter (0.5 + random()/2) with random() = 0.5
    });

    it('times out a slow reply and reports a retryable timeout', async () => {
      backend.script([{ kind: 'slow', delayMs: 3000 }]);
      const error = await backend.provider
        .complete({ prompt: 'slow', maxTokens: 20 }, { timeoutMs: 250 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmProviderError);
      expect((error as LlmProviderError).kind).toBe('timeout');
      expect((error as LlmProviderError).retryable).toBe(true);
    });

    it('rejects malformed JSON, repairs once, then falls back to the extractive answer', async () => {
      backend.script([{ kind: 'ok', text: '{"summary": "broken' }]);
      const error = await backend.provider
        .complete(buildSegmentSummaryRequest({ segmentId: 's', content: SEGMENT }), { timeoutMs })
        .catch((e: unknown) => e);
      expect((error as LlmProviderError).kind).toBe('invalid_json');
      if (oneCallPerCheck) return;

      backend.script([
        { kind: 'ok', text: 'not json at all' },
        {
          kind: 'ok',
          text:
            '{"summary":"Dropped Node ' +
            '18.","topics":["build"],"keyEntities":["package.json"],"importanceScore":0.6}',
        },
      ]);
      const repaired = await runner().complete(buildSegmentSummaryRequest({ segmentId: 's1', content: SEGMENT }));
      expect(repaired.source).toBe('model');
      expect(repaired.json?.summary).toBe('Dropped Node 18.');

      backend.script([
        { kind: 'ok', text: 'nope' },
        { kind: 'ok', text: 'still nope' },
      ]);
      const r = runner();
      const fallback = await r.complete(buildSegmentSummaryRequest({ segmentId: 's2', content: SEGMENT }));
      expect(fallback.source).toBe('fallback');
      expect(fallback.json?.keyEntities).toContain('package.json');
      expect(r.stats()).toMatchObject({ calls: 2, fallbacks: 1, jsonRepairs: 0 });
    });

    it('reports an empty reply as empty_reply', async () => {
      backend.script([{ kind: 'empty' }]);
      const error = await backend.provider
        .complete({ prompt: 'empty', maxTokens: 20 }, { timeoutMs })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmProviderError);
      expect((error as LlmProviderError).kind).toBe('empty_reply');
    });
  });
}
