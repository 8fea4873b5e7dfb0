// Owns the session listing table: per session, its statistics rolled up over its subagent sessions and
// the display cells of `strata index`, so that listing is one SQL query. Rows are a cache: the triggers
// below delete a row whenever what it was computed from changes, and core/retrieval/listing-table.ts computes
// missing rows (at the end of each ingest, or on read).
import type { Migration } from './types.js';

export const sessionListingMigration: Migration = {
  version: 5,
  name: 'session-listing',
  up(db) {
    db.exec(`
      CREATE TABLE session_listing (
        session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        -- the home folder display paths were computed with (rows for another home count as missing)
        home TEXT,
        short_id TEXT NOT NULL,
        messages INTEGER NOT NULL,
        bash_calls INTEGER NOT NULL,
        web_fetches INTEGER NOT NULL,
        web_searches INTEGER NOT NULL,
        lines_added INTEGER NOT NULL,
        lines_removed INTEGER NOT NULL,
        files_touched INTEGER NOT NULL,
        commits INTEGER NOT NULL,
        subagents INTEGER NOT NULL,
        -- JSON array of significant locations (display paths)
        locations TEXT NOT NULL,
        -- display cells: project path, locations joined by spaces, marks + tidied title
        shown_project TEXT NOT NULL,
        shown_locations TEXT NOT NULL,
        shown_title TEXT NOT NULL
      );
      CREATE TRIGGER session_listing_on_update AFTER UPDATE ON sessions BEGIN
        DELETE FROM session_listing WHERE session_id IN (NEW.id, OLD.parent_id, NEW.parent_id);
      END;
      CREATE TRIGGER session_listing_on_delete AFTER DELETE ON sessions BEGIN
        DELETE FROM session_listing WHERE session_id = OLD.parent_id;
      END;
      CREATE TRIGGER session_listing_on_stats_insert AFTER INSERT ON session_stats BEGIN
        DELETE FROM session_listing WHERE session_id = NEW.session_id;
      END;
      CREATE TRIGGER session_listing_on_stats_update AFTER UPDATE ON session_stats BEGIN
        DELETE FROM session_listing WHERE session_id = NEW.session_id;
      END;
    `);
  },
};
