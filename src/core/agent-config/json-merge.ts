// Owns merging strata's entries into a client's JSON configuration: parse (refusing what is not a JSON
// object), set or replace only strata's own keys and hook entries, and print with the file's indentation.
import { StrataError } from '../../shared/errors.js';

export type JsonObject = Record<string, unknown>;

export function parseJsonObject(text: string | undefined, path: string): JsonObject {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StrataError('CONFIG', `cannot parse ${path} as JSON (${(error as Error).message}); left it unchanged`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new StrataError('CONFIG', `${path} is not a JSON object; left it unchanged`);
  return value as JsonObject;
}

export function printJsonLike(value: unknown, previous: string | undefined): string {
  const indent = /^[ \t]*\{\s*\n([ \t]+)"/.exec(previous ?? '')?.[1] ?? '  ';
  return JSON.stringify(value, null, indent) + '\n';
}

/** The object at `key` of `parent`, created when absent; CONFIG when something else is there. */
export function objectAt(parent: JsonObject, key: string, path: string): JsonObject {
  const value = parent[key];
  if (value === undefined) return (parent[key] = {});
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new StrataError('CONFIG', `"${key}" in ${path} is not an object; left the file unchanged`);
  return value as JsonObject;
}

export function arrayAt(parent: JsonObject, key: string, path: string): unknown[] {
  const value = parent[key];
  if (value === undefined) return (parent[key] = []);
  if (!Array.isArray(value))
    throw new StrataError('CONFIG', `"${key}" in ${path} is not an array; left the file unchanged`);
  return value;
}

export const isStrataCommand = (command: unknown): boolean =>
  typeof command === 'string' && /^strata hook\b/.test(command.trim());
