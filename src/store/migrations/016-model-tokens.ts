// Owns the `session_model_tokens` table (see activity-days.ts): each session's token usage per model, filled
// here from the stored usage rows (whole again if a store's version is set back to run it twice).
import type { Migration } from './types.js';
import { ADD_MODEL_TOKENS } from '../activity-days.js';

export const modelTokensMigration: Migration = {
  version: 16,
  name: 'model-tokens',
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS session_model_tokens (
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cache_read_tokens INTEGER NOT NULL,
        cache_write_tokens INTEGER NOT NULL,
        PRIMARY KEY (session_id, model)
      ) WITHOUT ROWID;
      DELETE FROM session_model_tokens;
      ${ADD_MODEL_TOKENS('1')};
    `);
  },
};
