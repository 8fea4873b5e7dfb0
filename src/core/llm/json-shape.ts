// Owns turning a model's text into validated JSON: tolerant extraction (code fences, prose around the
// object) and validation against a zod schema or a JSON Schema (ajv, draft 2020-12, compiled once).
import { ZodType } from 'zod';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonShape } from './types.js';

export type ShapeResult<T> = { ok: true; value: T } | { ok: false; error: string };

let ajv: Ajv2020 | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

function isZodShape(shape: JsonShape): shape is ZodType {
  return shape instanceof ZodType || typeof (shape as { safeParse?: unknown }).safeParse === 'function';
}

/** Finds the JSON value in a reply: the whole text, a fenced block, or the outermost {...} / [...]. */
function extractJsonText(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (/^[[{]/.test(trimmed)) return trimmed;
  const fence = /```(?:json)?\s*\n([\s\S]*?)```/i.exec(trimmed);
  if (fence?.[1]) return fence[1].trim();
  const start = trimmed.search(/[[{]/);
  if (start < 0) return undefined;
  const open = trimmed[start];
  const end = trimmed.lastIndexOf(open === '{' ? '}' : ']');
  return end > start ? trimmed.slice(start, end + 1) : undefined;
}

export function validateShape<T>(value: unknown, shape: JsonShape): ShapeResult<T> {
  if (isZodShape(shape)) {
    const parsed = shape.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data as T };
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'does not match the schema',
    };
  }
  let validate = compiled.get(shape);
  if (!validate) {
    ajv ??= new Ajv2020({ allErrors: false, strict: false });
    validate = ajv.compile(shape);
    compiled.set(shape, validate);
  }
  if (validate(value)) return { ok: true, value: value as T };
  const err = validate.errors?.[0];
  return {
    ok: false,
    error: err ? `${err.instancePath || '(root)'} ${err.message ?? 'is invalid'}` : 'does not match the schema',
  };
}

/** Parses and validates a reply text. */
export function parseJsonReply<T>(text: string, shape: JsonShape): ShapeResult<T> {
  const candidate = extractJsonText(text);
  if (candidate === undefined) return { ok: false, error: 'no JSON object in the reply' };
  let value: unknown;
  try {
    value = JSON.parse(candidate);
  } catch (error) {
    return { ok: false, error: `invalid JSON: ${(error as Error).message}` };
  }
  return validateShape<T>(value, shape);
}
