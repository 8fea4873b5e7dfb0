// Owns the SQL of the logbooks table (migration 011): read one workspace's logbook, list them, and
// replace one in a single statement, so a killed run leaves the previous logbook whole.
import type { Database } from 'better-sqlite3';

export interface LogbookRow {
  workspace: string;
  kind: string;
  data: string;
  events: number;
  generatedAt: string;
  updatedAt: string;
}

const COLUMNS = 'workspace, kind, data, events, generated_at AS generatedAt, updated_at AS updatedAt';

export function readLogbookRow(db: Database, workspace: string): LogbookRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM logbooks WHERE workspace = ?`).get(workspace) as LogbookRow | undefined;
}

export type LogbookListRow = Omit<LogbookRow, 'data'> & { bytes: number };

/** Every stored logbook without its data, newest first. */
export function listLogbookRows(db: Database): LogbookListRow[] {
  return db
    .prepare(
      'SELECT workspace, kind, length(data) AS bytes, events, generated_at AS generatedAt, updated_at AS updatedAt ' +
        'FROM logbooks ORDER BY updated_at DESC, workspace',
    )
    .all() as LogbookListRow[];
}

/** Workspaces that have a logbook (for matching a folder to the nearest one). */
export function logbookWorkspaces(db: Database): string[] {
  return db.prepare('SELECT workspace FROM logbooks').pluck().all() as string[];
}

export function writeLogbookRow(db: Database, row: LogbookRow): void {
  db.prepare(
    `INSERT INTO logbooks (workspace, kind, data, events, generated_at, updated_at) VALUES (@workspace, @kind,
      @data, @events, @generatedAt, @updatedAt)
     ON CONFLICT(workspace) DO UPDATE SET kind = excluded.kind, data = excluded.data, events = excluded.events,
       generated_at = excluded.generated_at, updated_at = excluded.updated_at`,
  ).run(row);
}
