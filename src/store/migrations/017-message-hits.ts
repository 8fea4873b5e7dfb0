// Owns the message-hit index: a narrow covering index over what ranking needs of each message (its session
// and position), so a question's word matches read a few bytes per candidate instead of the wide message
// rows (whose meta JSON sits in the same pages).
import type { Migration } from './types.js';

export const messageHitsMigration: Migration = {
  version: 17,
  name: 'message-hits',
  up(db) {
    db.exec('CREATE INDEX IF NOT EXISTS messages_hit ON messages(id, session_id, seq)');
  },
};
