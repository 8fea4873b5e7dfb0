// Owns the record of which secret rules the stored texts were redacted with: the current ones for a
// new store, none ('') for a store older than this record (scanned again once). While a scan runs, blocks with ids in
// (scan_next, scan_end] still wait for it; scan_end is NULL when no scan is under way.
import { REDACTION_RULES_VERSION } from '../../shared/redact/rules-version.js';
import type { Migration } from './types.js';

export const redactionStateMigration: Migration = {
  version: 13,
  name: 'redaction-state',
  up(db) {
    db.exec(`
      CREATE TABLE redaction_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        rules TEXT NOT NULL,
        scan_next INTEGER NOT NULL DEFAULT 0,
        scan_end INTEGER
      );
    `);
    db.prepare(
      "INSERT INTO redaction_state (id, rules) VALUES (1, CASE WHEN EXISTS (SELECT 1 FROM blocks) THEN '' ELSE ? END)",
    ).run(REDACTION_RULES_VERSION);
  },
};
