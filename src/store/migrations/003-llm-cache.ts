// Owns the LLM response cache table: one row per (provider, model, prompt-template version, prompt
// hash), so a re-run over unchanged input makes zero model calls.
import type { Migration } from './types.js';

export const llmCacheMigration: Migration = {
  version: 3,
  name: 'llm-cache',
  up(db) {
    db.exec(`
      CREATE TABLE llm_cache (
        key TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        template_version TEXT NOT NULL,
        prompt_hash TEXT NOT NULL,
        reply_text TEXT NOT NULL,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        last_hit_at TEXT
      ) WITHOUT ROWID;
      CREATE INDEX llm_cache_model ON llm_cache(provider, model, template_version);
    `);
  },
};
