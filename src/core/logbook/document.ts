// Owns the logbook document as read back: a shape check that needs no schema compiler, parsing with
// one-line errors, the empty document of a workspace, and reading it back from the store.
import type { Database } from 'better-sqlite3';
import { StrataError, describeError } from '../../shared/errors.js';
import { readLogbookRow } from '../../store/logbook-table.js';
import { LOGBOOK_VERSION, type LogbookDocument } from './types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What reading needs of a logbook, checked without compiling the schema (which costs more than an
 * unchanged run may take): every document strata writes was validated against the full schema.
 */
function logbookShapeErrors(value: unknown): string[] {
  if (!isObject(value)) return ['not a JSON object'];
  const errors: string[] = [];
  if (typeof value.version !== 'string' || value.version.split('.')[0] !== LOGBOOK_VERSION.split('.')[0])
    errors.push(`/version must be ${LOGBOOK_VERSION.split('.')[0]}.x.y`);
  if (typeof value.workspace !== 'string' || typeof value.generated_at !== 'string')
    errors.push('/workspace and /generated_at must be strings');
  if (
    !isObject(value.source_range) ||
    typeof value.source_range.from !== 'string' ||
    typeof value.source_range.to !== 'string'
  )
    errors.push('/source_range must have from and to');
  if (!isObject(value.generator) || typeof value.generator.fingerprint !== 'string')
    errors.push('/generator must have a fingerprint');
  if (!isObject(value.sessions) || !Array.isArray(value.failed))
    errors.push('/sessions must be an object and /failed an array');
  if (!Array.isArray(value.timeline)) errors.push('/timeline must be an array');
  else {
    const bad = value.timeline.findIndex(
      (e) =>
        !isObject(e) ||
        typeof e.timestamp !== 'string' ||
        typeof e.content !== 'string' ||
        !['decision', 'fact', 'bug'].includes(e.type as string) ||
        !isObject(e.source) ||
        typeof e.source.session !== 'string' ||
        typeof e.source.message !== 'number',
    );
    if (bad >= 0) errors.push(`/timeline/${bad} is not a logbook event`);
  }
  return errors;
}

/** Parses a logbook; throws USAGE (exit 2) naming `where` when the text is not one. */
export function parseLogbook(text: string, where: string): LogbookDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StrataError('USAGE', `${where} is not a logbook (not JSON: ${describeError(error)})`);
  }
  const errors = logbookShapeErrors(value);
  if (errors.length > 0) throw new StrataError('USAGE', `${where} is not a logbook: ${errors.slice(0, 3).join('; ')}`);
  return value as LogbookDocument;
}

export function emptyLogbook(
  workspace: string,
  nowIso: string,
  generator: LogbookDocument['generator'],
): LogbookDocument {
  return {
    version: LOGBOOK_VERSION,
    workspace,
    generated_at: nowIso,
    source_range: { from: nowIso, to: nowIso },
    generator,
    timeline: [],
    sessions: {},
    failed: [],
  };
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
