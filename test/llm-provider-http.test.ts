// Contract suite for the network providers against a real HTTP server on 127.0.0.1 speaking the
// Anthropic and OpenAI wire formats through the real SDKs.
import { describeProviderContract, type ContractBackend } from '../src/core/llm/provider-contract.js';
import { createAnthropicProvider } from '../src/core/llm/providers/anthropic.js';
import { createOpenAiProvider } from '../src/core/llm/providers/openai.js';
import { startScriptedServer } from './llm-scripted-server.js';

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
