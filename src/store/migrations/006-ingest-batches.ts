// Owns two schema changes that make bulk ingest cheaper without changing what readers see:
// - fts_state: the full-text index is written in batches of several source files (see session-writer.ts).
//   Every block with id ≤ indexed_through is in blocks_fts; blocks above it are indexed by the next batch
//   (or, after an interrupted ingest, by the next ingest's catch-up).
// - tool results carry their call's tool name (the writer resolves it within the session), so the index
//   over tool-call ids, whose random keys made every file's commit rewrite ~40 scattered pages, goes.
//   A result stored before its call (Claude Code sometimes writes it first; the call may even come in a
//   later run) waits in unnamed_results, a small table the writer checks when it stores a call.
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
      UPDATE blocks SET tool_name = (SELECT c.tool_name FROM blocks c WHERE c.tool_call_id = blocks.tool_call_id AND
        c.kind = 'tool_call' LIMIT 1)
        WHERE kind = 'tool_result' AND tool_name IS NULL AND tool_call_id IS NOT NULL;
      DROP INDEX blocks_call;
      CREATE TABLE unnamed_results (
        session_id INTEGER NOT NULL,
        call_id TEXT NOT NULL,
        block_id INTEGER NOT NULL REFERENCES blocks(id) ON DELETE CASCADE,
        PRIMARY KEY (session_id, call_id, block_id)
      ) WITHOUT ROWID;
      CREATE INDEX unnamed_results_block ON unnamed_results(block_id);
      INSERT INTO unnamed_results (session_id, call_id, block_id)
        SELECT m.session_id, b.tool_call_id, b.id FROM blocks b JOIN messages m ON m.id = b.message_id
        WHERE b.kind = 'tool_result' AND b.tool_name IS NULL AND b.tool_call_id IS NOT NULL;
    `);
  },
};
