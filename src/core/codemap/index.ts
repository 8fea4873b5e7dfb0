// Owns the public surface of code maps: symbols via tree-sitter, budgeted rendering, symbol-aware chunks, manifest
// search.
export * from './types.js';
export {
  analyzeFile,
  countLines,
  DEFAULT_PARSE_TIMEOUT_MS,
  DEFAULT_MAX_FILE_BYTES,
  type AnalyzeOptions,
} from './analyze-file.js';
export { createCodeMapper, type CodeMapper, type CodeMapperOptions, type CodeMapperStats } from './code-mapper.js';
export { createMemoryParseCache } from './memory-cache.js';
export {
  openParseCache,
  defaultCachePath,
  cacheKey,
  PARSER_VERSION,
  CACHE_SCHEMA_VERSION,
  type ParseCache,
} from './parse-cache.js';
export { walkFiles, gitignoreMatcher, SKIPPED_DIRS, type FoundFile } from './walk-files.js';
export { languageForPath, type LanguageId } from './language-table.js';
export { loadGrammar, grammarDir } from './tree-sitter-runtime.js';
export {
  renderFileMap,
  renderSymbol,
  renderView,
  shortDoc,
  symbolMatches,
  type SourceReader,
  type ViewResult,
} from './render-map.js';
export { renderWithinBudget, type BudgetedMap, type BudgetedFile, type BudgetOptions } from './render-budget.js';
export { planChunks, type PlannedChunk } from './chunk-plan.js';
export { writeChunks, DEFAULT_MAX_CHARS, MANIFEST_FILE, INDEX_FILE } from './write-chunks.js';
export { searchManifest, parseSearchPattern, type ManifestHit } from './search-manifest.js';
