// Owns a parse cache held in memory for one long-running process (the MCP server): it writes nothing to
// disk, keeps at most `maxEntries` values and forgets the oldest first.
import type { ParseCache } from './parse-cache.js';

export function createMemoryParseCache(maxEntries = 20_000): ParseCache {
  const values = new Map<string, unknown>();
  return {
    get: (key) => values.get(key),
    put(key, value) {
      values.delete(key);
      values.set(key, value);
      if (values.size > maxEntries) values.delete(values.keys().next().value as string);
    },
    close: () => values.clear(),
  };
}
