// Owns the logbook document as stored and written: validation against schemas/logbook.schema.json,
// parsing with one-line errors, the empty document of a workspace, and reading it back from the store.
import type { Database } from 'better-sqlite3';
import { StrataError, describeError } from '../../shared/errors.js';
import { readLogbookRow } from '../../store/logbook-table.js';
import { SCHEMA_DIR, schemaErrors, schemaValidator } from '../history-index/schema-files.js';
import { LOGBOOK_VERSION, type LogbookDocument } from './types.js';

export const LOGBOOK_SCHEMA_URL = new URL('logbook.schema.json', SCHEMA_DIR);

export function validateLogbook(value: unknown): string[] {
  return schemaErrors(schemaValidator(LOGBOOK_SCHEMA_URL), value);
}

export function assertLogbook(value: unknown, where: string): asserts value is LogbookDocument {
  const errors = validateLogbook(value);
  if (errors.length > 0) throw new StrataError('SCHEMA', `${where} does not match logbook.schema.json: ${errors.join('; ')}`);
}

/** Parses a logbook; throws USAGE (exit 2) naming `where` when the text is not one. */
export function parseLogbook(text: string, where: string): LogbookDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StrataError('USAGE', `${where} is not a logbook (not JSON: ${describeError(error)})`);
  }
  const errors = validateLogbook(value);
  if (errors.length > 0) throw new StrataError('USAGE', `${where} is not a logbook: ${errors.slice(0, 3).join('; ')}`);
  return value as LogbookDocument;
}

export function emptyLogbook(workspace: string, nowIso: string, generator: LogbookDocument['generator']): LogbookDocument {
  return { version: LOGBOOK_VERSION, workspace, generated_at: nowIso, source_range: { from: nowIso, to: nowIso }, generator, timeline: [], sessions: {}, failed: [] };
}

/** The stored logbook of a workspace, or undefined; a stored row that no longer validates is ignored. */
export function readStoredLogbook(db: Database, workspace: string): LogbookDocument | undefined {
  const row = readLogbookRow(db, workspace);
  if (!row) return undefined;
  try {
    return parseLogbook(row.data, `the stored logbook of ${workspace}`);
  } catch {
    return undefined;
  }
}
