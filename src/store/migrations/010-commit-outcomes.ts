// Owns the schema of honest statistics: the hashes of a session's successful commits, and recounting the
// sessions whose commits were counted from their commands alone (their statistics rows are dropped and
// recomputed by the next reader or ingest), and the listing rows, whose locations are now normalised.
import type { Migration } from './types.js';

export const commitOutcomesMigration: Migration = {
  version: 10,
  name: 'commit-outcomes',
  up(db) {
    db.exec(`
      ALTER TABLE session_stats ADD COLUMN commit_hashes TEXT NOT NULL DEFAULT '[]';
      DELETE FROM session_stats WHERE commits > 0;
      DELETE FROM session_listing;
    `);
  },
};
