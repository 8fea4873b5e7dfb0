// Owns the retrieval schema: per-session mechanical statistics (`strata index`), recomputed at ingest
// for every touched session so that listing never re-reads blocks.
import type { Migration } from './types.js';

export const retrievalMigration: Migration = {
  version: 2,
  name: 'retrieval',
  up(db) {
    db.exec(`
      CREATE TABLE session_stats (
        session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        bash_calls INTEGER NOT NULL DEFAULT 0,
        web_fetches INTEGER NOT NULL DEFAULT 0,
        web_searches INTEGER NOT NULL DEFAULT 0,
        lines_added INTEGER NOT NULL DEFAULT 0,
        lines_removed INTEGER NOT NULL DEFAULT 0,
        commits INTEGER NOT NULL DEFAULT 0,
        -- JSON object: absolute (or as-written) file path -> work (lines added + removed, at least 1 per edit)
        files TEXT NOT NULL DEFAULT '{}',
        -- first words of the first human prompt, for sessions without a title
        first_prompt TEXT
      );
    `);
    // Sessions ingested before this migration get their rows from ensureSessionStats (core/retrieval).
  },
};
