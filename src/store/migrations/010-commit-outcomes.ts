// Owns the schema of honest statistics: the hashes of a session's successful commits. Statistics rows that
// may be wrong are dropped (recomputed by the next reader or ingest): commits counted from commands alone,
// titles taken from wrappers, JSON or repeated instructions; and every listing row (locations normalised).
import type { Migration } from './types.js';

export const commitOutcomesMigration: Migration = {
  version: 10,
  name: 'commit-outcomes',
  up(db) {
    db.exec(`
      ALTER TABLE session_stats ADD COLUMN commit_hashes TEXT NOT NULL DEFAULT '[]';
      DELETE FROM session_stats WHERE commits > 0
        OR first_prompt LIKE '<%' OR first_prompt LIKE '{%' OR first_prompt LIKE '[%'
        OR session_id IN (SELECT id FROM sessions WHERE agent IN ('codex', 'aider'));
      DELETE FROM session_listing;
    `);
  },
};
