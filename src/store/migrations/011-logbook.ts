// Owns the logbook table: one row per workspace (a project folder or a Puffin history) holding the
// logbook JSON as `strata logbook` wrote it, with its event count and times for `strata logbook list`.
import type { Migration } from './types.js';

export const logbookMigration: Migration = {
  version: 11,
  name: 'logbook',
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS logbooks (
        workspace TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        events INTEGER NOT NULL,
        generated_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
