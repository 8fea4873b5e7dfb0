// Owns the `anthropic` provider: the Messages API through @anthropic-ai/sdk (loaded lazily). Retries
// are the runner's job, so the SDK's own retries are off.
import type { LlmCallContext, LlmProvider, LlmReply, LlmRequest } from '../types.js';
import { classifySdkError } from '../errors.js';
import { finishReply, timeoutSignal } from './finish-reply.js';
import { loadSdk, type SdkImporter } from './load-sdk.js';

export interface AnthropicProviderOptions {
  model: string;
  apiKey: string;
  baseUrl?: string;
  importer?: SdkImporter;
}

interface AnthropicClient {
  messages: {
    create(
      body: Record<string, unknown>,
      options: Record<string, unknown>,
    ): Promise<{
      content: Array<{ type: string; text?: string }>;
      usage?: { input_tokens?: number; output_tokens?: number };
      model?: string;
    }>;
  };
}
type AnthropicCtor = new (options: Record<string, unknown>) => AnthropicClient;

export function createAnthropicProvider(options: AnthropicProviderOptions): LlmProvider {
  let client: Promise<AnthropicClient> | undefined;
  const getClient = (): Promise<AnthropicClient> =>
    (client ??= loadSdk<{ default: AnthropicCtor }>('@anthropic-ai/sdk', 'anthropic', options.importer).then(
      (sdk) => new sdk.default({ apiKey: options.apiKey, baseURL: options.baseUrl, maxRetries: 0 }),
    ));
  return {
    name: 'anthropic',
    model: options.model,
    networked: true,
    async complete<T>(request: LlmRequest<T>, context: LlmCallContext): Promise<LlmReply<T>> {
      const anthropic = await getClient();
      let message;
      try {
        message = await anthropic.messages.create(
          {
            model: options.model,
            max_tokens: request.maxTokens,
            ...(request.system ? { system: request.system } : {}),
            messages: [{ role: 'user', content: request.prompt }],
          },
          { signal: timeoutSignal(context), timeout: context.timeoutMs, maxRetries: 0 },
        );
      } catch (error) {
        throw classifySdkError(error, 'anthropic');
      }
      const text = (message.content ?? []).map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('');
      return finishReply('anthropic', options.model, request, {
        text,
        usage: { inputTokens: message.usage?.input_tokens ?? 0, outputTokens: message.usage?.output_tokens ?? 0 },
        ...(message.model ? { model: message.model } : {}),
      });
    },
  };
}
