// Owns the one call through which session-start context reaches the project's logbook. It returns null
// until the logbook lands; then it returns the logbook cut to `budget` tokens.
import type { Database } from 'better-sqlite3';

export function projectLogbookText(_db: Database, _projectDir: string, _budget: number): string | null {
  return null;
}
