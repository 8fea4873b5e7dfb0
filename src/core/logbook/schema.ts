// Owns checking a logbook against schemas/logbook.schema.json (ajv, draft 2020-12) before it is written;
// kept apart from reading so commands that only read never load the schema compiler.
import { StrataError } from '../../shared/errors.js';
import { SCHEMA_DIR, schemaErrors, schemaValidator } from '../history-index/schema-files.js';
import type { LogbookDocument } from './types.js';

const LOGBOOK_SCHEMA_URL = new URL('logbook.schema.json', SCHEMA_DIR);

export function validateLogbook(value: unknown): string[] {
  return schemaErrors(schemaValidator(LOGBOOK_SCHEMA_URL), value);
}

export function assertLogbook(value: unknown, where: string): asserts value is LogbookDocument {
  const errors = validateLogbook(value);
  if (errors.length > 0)
    throw new StrataError('SCHEMA', `${where} does not match logbook.schema.json: ${errors.join('; ')}`);
}
