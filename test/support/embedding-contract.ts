// The contract every embedding provider passes: one unit-length vector per text, in input order, the same
// text giving the same vector, a paraphrase nearer its original than an unrelated text, batches of maxBatch.
import { describe, expect, it } from 'vitest';
import { dot, type EmbeddingProvider } from '../../src/core/embed/types.js';

export function describeEmbeddingContract(
  name: string,
  setup: () => Promise<{ provider: EmbeddingProvider; close?: () => Promise<void> }>,
  options: { timeoutMs?: number } = {},
): void {
  const timeout = options.timeoutMs ?? 20_000;
  const withProvider = async (fn: (p: EmbeddingProvider) => Promise<void>) => {
    const { provider, close } = await setup();
    try {
      await fn(provider);
    } finally {
      await close?.();
    }
  };
  describe(`embedding provider contract: ${name}`, () => {
    it(
      'embeds nothing for no texts, and one unit vector per text in input order',
      async () => {
        await withProvider(async (p) => {
          expect(await p.embed([])).toEqual([]);
          const texts = ['the container keeps crashing in a restart loop', 'we decided to cache the results'];
          const [a, b] = await p.embed(texts);
          const [b2] = await p.embed([texts[1]!]);
          for (const v of [a!, b!]) expect(Math.abs(dot(v, v) - 1)).toBeLessThan(1e-3);
          expect(a!.length).toBe(b!.length);
          expect(dot(b!, b2!)).toBeGreaterThan(0.999);
          expect(dot(a!, b!)).toBeLessThan(0.99);
        });
      },
      timeout,
    );

    it(
      'puts a paraphrase nearer its original than an unrelated text',
      async () => {
        await withProvider(async (p) => {
          const [q, near, far] = await p.embed([
            'which session fixed the container crash loop?',
            'the docker container was crashing and restarting over and over',
            'we decided to memoize the results with a cache',
          ]);
          expect(dot(q!, near!)).toBeGreaterThan(dot(q!, far!));
        });
      },
      timeout,
    );

    it(
      'embeds a full batch of maxBatch texts',
      async () => {
        await withProvider(async (p) => {
          const n = Math.min(p.maxBatch, 32);
          const texts = Array.from({ length: n }, (_, i) => `passage number ${i} about topic ${i % 5}`);
          const vectors = await p.embed(texts);
          expect(vectors).toHaveLength(n);
          expect(p.model.length).toBeGreaterThan(0);
        });
      },
      timeout,
    );
  });
}
