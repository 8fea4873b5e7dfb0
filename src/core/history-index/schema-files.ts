// Owns access to the JSON files this capability ships in schemas/ (the history-index and marker-config
// JSON Schemas, draft 2020-12, and the default marker config) and their compiled ajv validators.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/** schemas/ at the package root; the same relative path works from src/ (tests) and dist/ (built CLI). */
export const SCHEMA_DIR = new URL('../../../schemas/', import.meta.url);
export const HISTORY_INDEX_SCHEMA_URL = new URL('history-index.schema.json', SCHEMA_DIR);
export const MARKER_CONFIG_SCHEMA_URL = new URL('marker-config.schema.json', SCHEMA_DIR);
export const DEFAULT_MARKERS_URL = new URL('default-markers.json', SCHEMA_DIR);

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const validators = new Map<string, ValidateFunction>();

export function readJsonFile(url: URL): unknown {
  return JSON.parse(readFileSync(url, 'utf8')) as unknown;
}

/** The compiled validator of a shipped schema (ajv 2020-12, strict, with a `date-time` format check). */
export function schemaValidator(url: URL): ValidateFunction {
  let validate = validators.get(url.href);
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    ajv.addFormat('date-time', {
      type: 'string',
      validate: (s: string) => ISO_DATE_TIME.test(s) && Number.isFinite(Date.parse(s)),
    });
    validate = ajv.compile(readJsonFile(url) as object);
    validators.set(url.href, validate);
  }
  return validate;
}

/** Runs a validator; returns readable error lines (`/path message`), empty when valid. */
export function schemaErrors(validate: ValidateFunction, value: unknown, limit = 10): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, limit).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
