// Owns the boundary guards for Gemini CLI records (2025 session JSON, 2026 session JSONL). Every field is
// optional; nothing here throws on data.

export { isObject, str, num, type Json } from '../json-guards.js';
import { isObject, str, type Json } from '../json-guards.js';

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** One line of a 2026 JSONL session. */
export type GeminiLine =
  | { kind: 'header'; record: Json }
  | { kind: 'set'; values: Json }
  | { kind: 'rewind'; id: string }
  | { kind: 'message'; id: string; record: Json }
  | { kind: 'unknown'; type: string }
  | { kind: 'malformed'; reason: string };

export function classifyGeminiLine(value: unknown): GeminiLine {
  if (!isObject(value)) return { kind: 'malformed', reason: 'record is not a JSON object' };
  if ('$set' in value) {
    return isObject(value.$set)
      ? { kind: 'set', values: value.$set }
      : { kind: 'malformed', reason: '$set without an object' };
  }
  if ('$rewindTo' in value) {
    const id = str(value.$rewindTo);
    return id ? { kind: 'rewind', id } : { kind: 'malformed', reason: '$rewindTo without a message id' };
  }
  const id = str(value.id);
  const type = str(value.type);
  if (id !== undefined && type !== undefined) return { kind: 'message', id, record: value };
  if (type === undefined && str(value.sessionId) !== undefined) return { kind: 'header', record: value };
  if (type !== undefined) return { kind: 'message', id: '', record: value };
  return { kind: 'unknown', type: 'untyped' };
}
