// Owns the public surface of the history index capability: the pipeline (generateHistoryIndex), its
// components and the index file reader used by `markers` and `topics`.
export * from './types.js';
export { HistoryParser, STREAM_THRESHOLD_BYTES, finalizeHistory, emptyHistory } from './history-parser.js';
export { parseStoreHistory, selectStoreSessions, type StoreSelection } from './store-history.js';
export { MarkerExtractor, markerConfigFromJson, type MarkerConfigFile } from './marker-extractor.js';
export {
  ContentSegmenter,
  DEFAULT_SEGMENTATION,
  renderTurn,
  segmentIdFor,
  conversations,
} from './content-segmenter.js';
export { SummaryGenerator, type SummaryOutcome, type BatchItem, type BatchResult } from './summary-generator.js';
export {
  detectChanges,
  hashBranch,
  hashHistory,
  hashPrompt,
  hashSegment,
  normalizeWhitespace,
  type ChangeSet,
} from './hash-calculator.js';
export { IncrementalUpdater, FULL_REINDEX_RATIO, SUMMARY_BATCH_SIZE } from './incremental-updater.js';
export { IndexSerializer, INDEX_VERSION, type WriteFile } from './index-serializer.js';
export {
  ProcessingStats,
  formatSummary,
  type ProcessingStatistics,
  type Phase,
  type RunMode,
} from './processing-stats.js';
export { hashFile } from './file-hash.js';
export {
  generateHistoryIndex,
  type GenerateOptions,
  type GenerateDeps,
  type GenerateResult,
  type HistorySourceOption,
} from './pipeline.js';
export { HISTORY_INDEX_SCHEMA_URL, MARKER_CONFIG_SCHEMA_URL, DEFAULT_MARKERS_URL } from './schema-files.js';
