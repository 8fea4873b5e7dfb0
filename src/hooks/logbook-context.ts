// Owns the one call through which session-start context reaches the project's logbook.
import type { Database } from 'better-sqlite3';
import { logbookForProject } from '../core/logbook/show.js';

/** The project's stored logbook, newest first within `budget` tokens; null when it has none. */
export function projectLogbookText(db: Database, projectDir: string, budget: number): string | null {
  const view = logbookForProject(db, projectDir, { budget });
  return view.workspace && view.events.length > 0 ? view.text : null;
}
