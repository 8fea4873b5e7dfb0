// Owns checking a context pack against schemas/context-pack.schema.json (JSON Schema 2020-12, ajv)
// before it is written and when it is read back.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { StrataError } from '../../shared/errors.js';
import type { ContextPack } from './types.js';

/** The shipped schema; the path is the same from src/ (tests) and dist/ (built CLI). */
export const CONTEXT_PACK_SCHEMA_URL = new URL('../../../schemas/context-pack.schema.json', import.meta.url);

let validator: ValidateFunction | undefined;

function compiled(): ValidateFunction {
  if (!validator) {
    const schema = JSON.parse(readFileSync(CONTEXT_PACK_SCHEMA_URL, 'utf8')) as object;
    // The shipped schema is checked against the 2020-12 meta-schema by a unit test, so each process
    // skips that step (it is most of ajv's compile time).
    validator = new Ajv2020({ allErrors: false, strict: true, validateSchema: false }).compile(schema);
  }
  return validator;
}

/** Throws SCHEMA naming the first violation if `value` is not a valid schema-v1 context pack. */
export function assertValidPack(value: unknown, where = 'context pack'): asserts value is ContextPack {
  const validate = compiled();
  if (validate(value)) return;
  const first = validate.errors?.[0];
  const detail = first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : 'is invalid';
  throw new StrataError('SCHEMA', `${where} does not match context-pack schema v1: ${detail}`, {
    details: { errors: validate.errors },
  });
}
