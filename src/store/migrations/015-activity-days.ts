// Owns the `session_days` table (see activity-days.ts), filled here from the stored messages (whole again if
// a store's version is set back to run it twice).
import type { Migration } from './types.js';
import { ADD_CALLS, ADD_MESSAGES } from '../activity-days.js';

export const activityDaysMigration: Migration = {
  version: 15,
  name: 'activity-days',
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS session_days (
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        day TEXT NOT NULL,
        messages INTEGER NOT NULL,
        tool_calls INTEGER NOT NULL,
        PRIMARY KEY (session_id, day)
      ) WITHOUT ROWID;
      DELETE FROM session_days;
      ${ADD_MESSAGES('1')};
      ${ADD_CALLS('blocks b JOIN messages m ON m.id = b.message_id', '1')};
    `);
  },
};
