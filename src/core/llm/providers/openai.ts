// Owns the `openai` provider: Chat Completions through the openai SDK (loaded lazily) against any
// OpenAI-compatible base URL — OpenAI itself, Ollama, llama.cpp server, vLLM, LM Studio.
import type { LlmCallContext, LlmProvider, LlmReply, LlmRequest } from '../types.js';
import { classifySdkError } from '../errors.js';
import { finishReply, timeoutSignal } from './finish-reply.js';
import { loadSdk, type SdkImporter } from './load-sdk.js';

export interface OpenAiProviderOptions {
  model: string;
  apiKey: string;
  baseUrl?: string;
  importer?: SdkImporter;
}

interface OpenAiClient {
  chat: {
    completions: {
      create(
        body: Record<string, unknown>,
        options: Record<string, unknown>,
      ): Promise<{
        choices?: Array<{ message?: { content?: string | null } }>;
        usage?: { prompt_tokens?: number; completion_tokens?: number };
        model?: string;
      }>;
    };
  };
}
type OpenAiCtor = new (options: Record<string, unknown>) => OpenAiClient;

export function createOpenAiProvider(options: OpenAiProviderOptions): LlmProvider {
  let client: Promise<OpenAiClient> | undefined;
  const getClient = (): Promise<OpenAiClient> =>
    (client ??= loadSdk<{ default: OpenAiCtor }>('openai', 'openai', options.importer).then(
      (sdk) => new sdk.default({ apiKey: options.apiKey, baseURL: options.baseUrl, maxRetries: 0 }),
    ));
  return {
    name: 'openai',
    model: options.model,
    networked: true,
    async complete<T>(request: LlmRequest<T>, context: LlmCallContext): Promise<LlmReply<T>> {
      const openai = await getClient();
      const messages = [
        ...(request.system ? [{ role: 'system', content: request.system }] : []),
        { role: 'user', content: request.prompt },
      ];
      let completion;
      try {
        // max_tokens (not max_completion_tokens): the one every OpenAI-compatible local server accepts.
        completion = await openai.chat.completions.create(
          { model: options.model, max_tokens: request.maxTokens, messages },
          { signal: timeoutSignal(context), timeout: context.timeoutMs, maxRetries: 0 },
        );
      } catch (error) {
        throw classifySdkError(error, 'openai');
      }
      return finishReply('openai', options.model, request, {
        text: completion.choices?.[0]?.message?.content ?? '',
        usage: {
          inputTokens: completion.usage?.prompt_tokens ?? 0,
          outputTokens: completion.usage?.completion_tokens ?? 0,
        },
        ...(completion.model ? { model: completion.model } : {}),
      });
    },
  };
}
