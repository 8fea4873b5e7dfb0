// strata's public library surface: one curated entry. Capabilities are exported as namespaces so
// their names never collide; the store, ingest and the model are exported flat.
export type * from './shared/model.js';
export { AGENTS } from './shared/model.js';
export { StrataError, EXIT_CODES, type StrataErrorCode } from './shared/errors.js';
export { countTokens, estimateTokens, truncateToTokens } from './shared/tokenizer.js';
export { dataDir, storePath } from './shared/paths.js';
export { openStore, type Store, type OpenStoreOptions } from './store/db.js';
export { ingest, type IngestOptions } from './core/ingest/ingest.js';
export type { IngestReport } from './core/ingest/report.js';
export type { SessionFilter } from './core/sessions/session-filter.js';
export { storeStats, type StoreStats } from './core/sessions/store-stats.js';
export { listSessions, type ListingEntry, type ListingFilter } from './core/retrieval/session-listing.js';
export { search, type SearchOptions, type SearchResult } from './core/retrieval/search.js';
export { readSession } from './core/retrieval/read-session.js';
export { ADAPTERS, adapterFor } from './sources/registry.js';
export type { SourceAdapter, LineAdapter, FileAdapter } from './sources/types.js';
export * as llm from './core/llm/index.js';
export * as contextPack from './core/context-pack/index.js';
export * as codemap from './core/codemap/index.js';
export * as historyIndex from './core/history-index/index.js';
