// Owns the schema that lets a re-ingest never delete a stored message:
// - messages.archived: 1 when the message vanished from its source (a shortened, rewritten or replaced
//   file, a session deleted from a database); it stays readable, marked, and comes back (0) if seen again.
// - message_versions: the earlier content of a message a re-parse changed (its blocks as JSON), so the
//   old text stays retrievable while only the current version is indexed and shown.
// - sessions.title_at: the newest message time of the parse that set the title, so that of two versions
//   of one session (an old backup beside the live file) the newer one names it, whatever came first.
import type { Migration } from './types.js';

export const messageHistoryMigration: Migration = {
  version: 9,
  name: 'message-history',
  up(db) {
    db.exec(`
      ALTER TABLE messages ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sessions ADD COLUMN title_at TEXT;
      CREATE TABLE message_versions (
        id INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        source_id INTEGER REFERENCES sources(id) ON DELETE SET NULL,
        superseded_at TEXT NOT NULL,
        content_hash TEXT,
        -- JSON array of the superseded blocks:
        -- [{kind, field, text, tool_name, tool_call_id, tool_input, is_error, noise, meta}]
        blocks TEXT NOT NULL
      );
      CREATE INDEX message_versions_message ON message_versions(message_id);
    `);
  },
};
