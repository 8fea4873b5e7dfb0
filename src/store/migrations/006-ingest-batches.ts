// Owns two schema changes that make bulk ingest cheaper without changing what readers see:
// - fts_state: the full-text index is written in batches of several source files (see session-writer.ts).
//   Every block with id ≤ indexed_through is in blocks_fts; blocks above it are indexed by the next batch
//   (or, after an interrupted ingest, by the next ingest's catch-up).
// - tool results carry their call's tool name (the writer resolves it within the session), so the index
//   over tool-call ids, whose random keys made every file's commit rewrite ~40 scattered pages, goes.
import type { Migration } from './types.js';

export const ingestBatchesMigration: Migration = {
  version: 6,
  name: 'ingest-batches',
  up(db) {
    db.exec(`
      CREATE TABLE fts_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        indexed_through INTEGER NOT NULL
      );
      INSERT INTO fts_state (id, indexed_through) VALUES (1, (SELECT COALESCE(MAX(id), 0) FROM blocks));
      UPDATE blocks SET tool_name = (SELECT c.tool_name FROM blocks c WHERE c.tool_call_id = blocks.tool_call_id AND c.kind = 'tool_call' LIMIT 1)
        WHERE kind = 'tool_result' AND tool_name IS NULL AND tool_call_id IS NOT NULL;
      DROP INDEX blocks_call;
    `);
  },
};
