// Owns dropping two indexes no query uses, which every source file's commit paid for:
// - blocks_tool (blocks.tool_name): tool filters compare names COLLATE NOCASE, which a BINARY index cannot
//   serve, and every other read reaches blocks through their message. New blocks of ~20 tool names land at
//   the end of ~20 runs of the index, so each commit rewrote that many scattered pages (7% of the WAL
//   frames of a bulk ingest).
// - sources_agent (sources.agent): a handful of distinct values; the only query by agent reads every
//   source row anyway.
import type { Migration } from './types.js';

export const unusedIndexesMigration: Migration = {
  version: 8,
  name: 'unused-indexes',
  up(db) {
    db.exec('DROP INDEX IF EXISTS blocks_tool; DROP INDEX IF EXISTS sources_agent;');
  },
};
