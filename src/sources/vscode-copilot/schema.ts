// Owns the shapes of VS Code chat session files read defensively: texts that are strings or
// `{value}` Markdown objects, and URIs serialized as `{path, fsPath, scheme}`.
import { isObject, num, str, type Json } from '../json-guards.js';

export { isObject, num, str, type Json };

/** A message given as a string or a `{value}` Markdown string. */
export function messageText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return isObject(value) ? str(value.value) : undefined;
}

export function uriPath(value: unknown): string | undefined {
  return isObject(value) ? (str(value.path) ?? str(value.fsPath)) : undefined;
}
