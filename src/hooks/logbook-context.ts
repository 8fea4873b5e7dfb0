// Owns the one call through which session-start context reaches the project's logbook.
import type { Database } from 'better-sqlite3';
import { logbookForProject, workspaceForFolder } from '../core/logbook/show.js';

/**
 * The project's stored logbook, newest first within the budget `budget()` gives; null when it has none.
 * The budget is asked for only when there is a logbook: measuring it loads the tokenizer.
 */
export function projectLogbookText(db: Database, projectDir: string, budget: () => number): string | null {
  if (workspaceForFolder(db, projectDir) === undefined) return null;
  const view = logbookForProject(db, projectDir, { budget: budget() });
  return view.workspace && view.events.length > 0 ? view.text : null;
}
