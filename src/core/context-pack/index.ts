// Public surface of the context-pack capability: build a segment's digest + index + chunks
// (schema v1) and serve chunks by id or full-text search from the segment's context.db.
export * from './types.js';
export { chunkMarkdown } from './chunker.js';
export { classifyLines, splitLines, fenceOpener, isFenceCloser, frontMatterLength } from './markdown-lines.js';
export { chunkId, normalizeTitlePath, parseChunkId } from './ids.js';
export { preview, countChars } from './text-utils.js';
export { scoreChunk, digestForDoc, DIGEST_MAX_CHARS } from './digest.js';
export { discoverDocs, globToRegExp, DEFAULT_INCLUDE } from './discover.js';
export {
  buildContextPack,
  docNames,
  type BuildPackInput,
  type BuildPackDeps,
  type BuildPackResult,
} from './build-pack.js';
export { assertValidPack, CONTEXT_PACK_SCHEMA_URL } from './pack-schema.js';
export { buildFtsQuery } from './fts-query.js';
export {
  writeContextDb,
  openContextDb,
  getContext,
  searchContext,
  type ContextChunk,
  type SearchHit,
  type SearchResult,
} from './context-db.js';
export { resolveSegment, type SegmentPaths, type SegmentLocator } from './segment.js';
export {
  writeContextPack,
  readPack,
  serializePack,
  type WritePackOptions,
  type WritePackResult,
} from './write-pack.js';
export { packStats, type PackStats, type DocStats } from './pack-stats.js';
export { openSegmentContext, type SegmentContext } from './runtime.js';
export { chunkLocation, getChunksWithinBudget, renderChunk, type BudgetedChunks } from './budget-chunks.js';
