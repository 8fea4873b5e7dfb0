// Owns the OpenAI-compatible `/v1/embeddings` provider (Ollama, LM Studio, OpenAI): batched POSTs with
// retries on 429/5xx/network (backoff honouring Retry-After), a per-call timeout, and a spend guard on the
// number of calls, as the LLM providers have. The key is sent only as a bearer header, never stored.
import { backoffDelay, realSleep, type Sleep } from '../llm/backoff.js';
import { LlmBudgetError, LlmProviderError, parseRetryAfter } from '../llm/errors.js';
import { normalize, type EmbeddingProvider } from './types.js';

export interface OpenAiCompatibleOptions {
  /** e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  maxBatch?: number;
  /** Retries after the first try of one call (default 4). */
  retries?: number;
  timeoutMs?: number;
  /** Spend guard: refuse the call past this many (default unlimited). */
  maxCalls?: number;
  sleep?: Sleep;
  random?: () => number;
}

export interface OpenAiCompatibleProvider extends EmbeddingProvider {
  readonly calls: number;
}

const NAME = 'openai-compatible';

export function createOpenAiCompatibleProvider(options: OpenAiCompatibleOptions): OpenAiCompatibleProvider {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const retries = options.retries ?? 4;
  const sleep = options.sleep ?? realSleep;
  const backoff = {
    baseDelayMs: 500,
    maxDelayMs: 20_000,
    maxRetryAfterMs: 60_000,
    random: options.random ?? Math.random,
  };
  let calls = 0;

  async function post(texts: string[]): Promise<Float32Array[]> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: options.model, input: texts }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
      });
    } catch (error) {
      const name = (error as Error).name;
      const kind = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network';
      throw new LlmProviderError(kind, `${NAME}: ${kind === 'timeout' ? 'request timed out' : 'connection failed'}`, {
        cause: error,
      });
    }
    const body = await response.text();
    if (!response.ok) {
      const status = response.status;
      const short = `${NAME}: HTTP ${status}: ${body.replace(/\s+/g, ' ').slice(0, 200)}`;
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      if (status === 429) throw new LlmProviderError('rate_limit', short, { status, retryAfterMs });
      if (status >= 500 || status === 408) throw new LlmProviderError('server', short, { status, retryAfterMs });
      throw new LlmProviderError(status === 401 || status === 403 ? 'auth' : 'bad_request', short, { status });
    }
    return parseVectors(body, texts.length);
  }

  return {
    name: NAME,
    model: options.model,
    baseUrl: options.baseUrl,
    maxBatch: options.maxBatch ?? 64,
    get calls() {
      return calls;
    },
    async embed(texts) {
      if (texts.length === 0) return [];
      for (let attempt = 0; ; attempt++) {
        if (options.maxCalls !== undefined && calls >= options.maxCalls)
          throw new LlmBudgetError('maxCalls', { calls, costUsd: 0, maxCalls: options.maxCalls });
        calls++;
        try {
          return await post(texts);
        } catch (error) {
          if (!(error instanceof LlmProviderError) || !error.retryable || attempt >= retries) throw error;
          await sleep(backoffDelay(attempt + 1, error.retryAfterMs, backoff));
        }
      }
    },
  };
}

/** `{ data: [{ index, embedding }] }`, in input order whatever order the server answered in. */
function parseVectors(body: string, count: number): Float32Array[] {
  let parsed: { data?: Array<{ index?: number; embedding?: unknown }> };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    throw new LlmProviderError('invalid_json', `${NAME}: the reply is not JSON`);
  }
  const data = Array.isArray(parsed.data) ? parsed.data : [];
  const out: Float32Array[] = new Array(count);
  data.forEach((item, i) => {
    const at = typeof item.index === 'number' ? item.index : i;
    if (Array.isArray(item.embedding) && at >= 0 && at < count) out[at] = normalize(item.embedding as number[]);
  });
  for (let i = 0; i < count; i++)
    if (!out[i] || out[i]!.length === 0)
      throw new LlmProviderError('invalid_json', `${NAME}: the reply has no embedding for input ${i}`);
  return out;
}
