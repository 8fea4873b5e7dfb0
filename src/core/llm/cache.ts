// Owns the LLM response cache: keys from (provider, model, prompt-template version, prompt hash) and
// two backends — the store's llm_cache table (migration 003) and an in-memory map for tests/one-offs.
import type { Database } from 'better-sqlite3';
import { sha256 } from '../../shared/hash.js';
import type { LlmRequest } from './types.js';

export interface CachedReply {
  text: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface CacheKeyParts {
  provider: string;
  model: string;
  templateVersion: string;
  promptHash: string;
  key: string;
}

export interface LlmCache {
  get(key: string): CachedReply | undefined;
  set(parts: CacheKeyParts, reply: CachedReply): void;
}

/** The prompt hash covers everything sent to the model: system text, prompt and the token cap. */
export function cacheKeyFor(provider: string, model: string, request: LlmRequest): CacheKeyParts {
  const templateVersion = request.templateVersion ?? 'adhoc';
  const promptHash = sha256(`${request.system ?? ''}\u0000${request.prompt}\u0000${request.maxTokens}`);
  return {
    provider,
    model,
    templateVersion,
    promptHash,
    key: sha256(`${provider}\u0000${model}\u0000${templateVersion}\u0000${promptHash}`),
  };
}

export function createStoreCache(db: Database, now: () => Date = () => new Date()): LlmCache {
  const select = db.prepare<
    [string],
    { reply_text: string; input_tokens: number; output_tokens: number; cost_usd: number }
  >('SELECT reply_text, input_tokens, output_tokens, cost_usd FROM llm_cache WHERE key = ?');
  const touch = db.prepare<[string, string]>('UPDATE llm_cache SET last_hit_at = ? WHERE key = ?');
  const upsert = db.prepare(
    `INSERT INTO llm_cache (key, provider, model, template_version, prompt_hash, reply_text, input_tokens,
      output_tokens, cost_usd, created_at)
     VALUES (@key, @provider, @model, @templateVersion, @promptHash, @text, @inputTokens, @outputTokens, @costUsd,
       @createdAt)
     ON CONFLICT(key) DO UPDATE SET reply_text = excluded.reply_text, input_tokens = excluded.input_tokens,
       output_tokens = excluded.output_tokens, cost_usd = excluded.cost_usd, created_at = excluded.created_at`,
  );
  return {
    get(key) {
      const row = select.get(key);
      if (!row) return undefined;
      touch.run(now().toISOString(), key);
      return {
        text: row.reply_text,
        inputTokens: row.input_tokens,
        outputTokens: row.output_tokens,
        costUsd: row.cost_usd,
      };
    },
    set(parts, reply) {
      upsert.run({ ...parts, ...reply, createdAt: now().toISOString() });
    },
  };
}

export function createMemoryCache(): LlmCache & { size(): number } {
  const map = new Map<string, CachedReply>();
  return {
    get: (key) => map.get(key),
    set: (parts, reply) => void map.set(parts.key, reply),
    size: () => map.size,
  };
}
