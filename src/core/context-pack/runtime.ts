// Owns the runtime handle agents use (spec "Runtime Tools"): open one segment's context.db and
// call getContext(id) / searchContext(query, k) on it without touching any other segment.
import { getContext, openContextDb, searchContext, type ContextChunk, type SearchResult } from './context-db.js';
import { resolveSegment, type SegmentLocator, type SegmentPaths } from './segment.js';

export interface SegmentContext {
  paths: SegmentPaths;
  /** The chunk with this id, or undefined (O(1) primary-key lookup). */
  getContext(id: string): ContextChunk | undefined;
  /** Best k chunks for a query; throws INVALID_QUERY for malformed FTS5 syntax. */
  searchContext(query: string, k?: number): SearchResult;
  close(): void;
}

/** Opens a segment's context.db read-only; NOT_FOUND when the segment or its database is missing. */
export function openSegmentContext(locator: SegmentLocator): SegmentContext {
  const paths = resolveSegment(locator);
  const db = openContextDb(paths.dbPath);
  return {
    paths,
    getContext: (id) => getContext(db, id),
    searchContext: (query, k = 10) => searchContext(db, query, k),
    close: () => db.close(),
  };
}
