// Owns the one call through which session-start context reaches the project's logbook. It returns null
// until the logbook lands; then it returns logbookForProject(db, projectDir, { budget }) as text.
import type { Database } from 'better-sqlite3';

export function projectLogbookText(_db: Database, _projectDir: string, _budget: number): string | null {
  return null;
}
