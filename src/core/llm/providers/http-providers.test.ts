// Contract suite for the network providers against a real HTTP server on 127.0.0.1 speaking the
// Anthropic and OpenAI wire formats through the real SDKs.
import { describeProviderContract, type ContractBackend } from '../../../../test/support/llm-provider-contract.js';
import { createAnthropicProvider } from './anthropic.js';
import { createOpenAiProvider } from './openai.js';
import { startScriptedServer } from '../../../../test/support/llm-scripted-server.js';
import { describe, expect, it } from 'vitest';
import { checkLlm } from '../check.js';
import { resolveLlmConfig } from '../config.js';

async function httpBackend(kind: 'anthropic' | 'openai'): Promise<ContractBackend> {
  const server = await startScriptedServer();
  const provider =
    kind === 'anthropic'
      ? createAnthropicProvider({ model: 'claude-haiku-4-5', apiKey: 'test-key', baseUrl: server.url })
      : createOpenAiProvider({ model: 'gpt-4o-mini', apiKey: 'test-key', baseUrl: `${server.url}/v1` });
  return {
    provider,
    script: (steps) => server.script(steps),
    requestCount: () => server.requests.length,
    supportsRetryAfter: true,
    close: () => server.close(),
  };
}

describeProviderContract('anthropic (Messages API, @anthropic-ai/sdk)', () => httpBackend('anthropic'));
describeProviderContract('openai (Chat Completions, openai SDK)', () => httpBackend('openai'));

describe('llm check against a real HTTP server', () => {
  it('retries a 429 (waiting its Retry-After) and a 500 like every other call, then reports the answer', async () => {
    const server = await startScriptedServer();
    try {
      server.script([{ kind: 'rate-limit', retryAfterSec: 2 }, { kind: 'server-error' }, { kind: 'ok', text: 'OK' }]);
      const config = resolveLlmConfig({
        flags: { provider: 'anthropic', baseUrl: server.url },
        env: { ANTHROPIC_API_KEY: 'test-key' },
        configFile: {},
      });
      const delays: number[] = [];
      const result = await checkLlm(config, {
        env: { ANTHROPIC_API_KEY: 'test-key' },
        sleep: async (ms) => void delays.push(ms),
      });
      expect(result).toMatchObject({ ok: true, reply: 'OK', calls: 3 });
      expect(server.requests).toHaveLength(3);
      expect(delays[0]).toBeGreaterThanOrEqual(2000);
    } finally {
      await server.close();
    }
  });

  it('reports failure after the retries are spent', async () => {
    const server = await startScriptedServer();
    try {
      server.script([], { kind: 'server-error' });
      const config = resolveLlmConfig({
        flags: { provider: 'anthropic', baseUrl: server.url },
        env: { ANTHROPIC_API_KEY: 'test-key' },
        configFile: {},
      });
      const result = await checkLlm(config, { env: { ANTHROPIC_API_KEY: 'test-key' }, sleep: async () => {} });
      expect(result.ok).toBe(false);
      expect(server.requests).toHaveLength(4);
    } finally {
      await server.close();
    }
  });
});
