// Owns choosing the embedding provider: from flags/environment for `strata embed`, and from the model a
// store was embedded with for a search (so the query is embedded by the same model as its passages).
import type { Database } from 'better-sqlite3';
import { StrataError } from '../../shared/errors.js';
import { embeddingModels } from '../../store/embeddings.js';
import { createOfflineProvider, OFFLINE_MODEL } from './offline.js';
import { createOpenAiCompatibleProvider } from './openai-compatible.js';
import type { EmbeddingProvider } from './types.js';

export interface EmbedProviderChoice {
  /** 'offline' or 'openai-compatible' (default: openai-compatible when a URL is given, else offline). */
  provider?: string;
  /** Endpoint of an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 (STRATA_EMBED_URL). */
  url?: string;
  /** Model name on that server (STRATA_EMBED_MODEL). */
  model?: string;
  maxCalls?: number;
}

type Env = Record<string, string | undefined>;

/** The key goes only where it belongs: STRATA_EMBED_API_KEY anywhere, OPENAI_API_KEY to OpenAI alone. */
function apiKeyFor(url: string, env: Env): string | undefined {
  if (env.STRATA_EMBED_API_KEY) return env.STRATA_EMBED_API_KEY;
  return /^https:\/\/api\.openai\.com\//.test(url) ? env.OPENAI_API_KEY : undefined;
}

export function createEmbeddingProvider(choice: EmbedProviderChoice, env: Env): EmbeddingProvider {
  const url = choice.url ?? env.STRATA_EMBED_URL;
  const name = choice.provider ?? (url ? 'openai-compatible' : 'offline');
  if (name === 'offline') return createOfflineProvider();
  if (name !== 'openai-compatible')
    throw new StrataError('USAGE', `unknown embedding provider '${name}' (offline, openai-compatible)`);
  const model = choice.model ?? env.STRATA_EMBED_MODEL;
  if (!url || !model)
    throw new StrataError('USAGE', 'openai-compatible embeddings need --url and --model (or STRATA_EMBED_URL/MODEL)');
  const apiKey = apiKeyFor(url, env);
  return createOpenAiCompatibleProvider({
    baseUrl: url,
    model,
    ...(apiKey ? { apiKey } : {}),
    ...(choice.maxCalls !== undefined ? { maxCalls: choice.maxCalls } : {}),
  });
}

/** How a provider for the store's recorded model is made: for a search, or for the embedding after an ingest. */
export interface RecordedProviderOptions {
  /** STRATA_EMBED_URL may point a search elsewhere; the embedding after an ingest uses the recorded URL only. */
  urlFromEnv?: boolean;
  retries?: number;
  timeoutMs?: number;
  maxCalls?: number;
}

/** The provider of the store's most recent embedding model, or undefined when it holds no vectors. */
export function providerForStore(
  db: Database,
  env: Env,
  options: RecordedProviderOptions = { urlFromEnv: true },
): EmbeddingProvider | undefined {
  const row = embeddingModels(db)[0];
  if (!row) return undefined;
  if (row.provider === 'offline' && row.model === OFFLINE_MODEL) return createOfflineProvider();
  const url = (options.urlFromEnv ? env.STRATA_EMBED_URL : undefined) ?? row.baseUrl;
  if (row.provider !== 'openai-compatible' || !url) return undefined;
  const apiKey = apiKeyFor(url, env);
  return createOpenAiCompatibleProvider({
    baseUrl: url,
    model: row.model,
    ...(apiKey ? { apiKey } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxCalls !== undefined ? { maxCalls: options.maxCalls } : {}),
  });
}
