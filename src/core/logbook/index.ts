// Owns the public surface of the project logbook: the run, the loop, the stored document and its views.
export { runLogbook, logbookLockPath, type RunLogbookOptions, type RunLogbookResult } from './run-logbook.js';
export {
  buildLogbook,
  generatorFor,
  DEFAULT_MAX_EVENTS,
  type BuildOptions,
  type BuildResult,
} from './build-logbook.js';
export {
  listConversations,
  loadConversation,
  type WorkspaceSelection,
  type ConversationHead,
} from './conversations.js';
export { chunkConversation, DEFAULT_CHUNK_TOKENS, MIN_CHUNK_TOKENS, type Chunk } from './chunker.js';
export { deduplicateTimeline, contentTokens, similarity, DEFAULT_SIMILARITY } from './dedupe.js';
export { normalizeEvents, isBareReference, MAX_EVENTS_PER_CHUNK } from './event-normalize.js';
export { parseLogbook, logbookShapeErrors, readStoredLogbook, emptyLogbook } from './document.js';
export { validateLogbook, assertLogbook, LOGBOOK_SCHEMA_URL } from './schema.js';
export {
  formatLogbook,
  formatText,
  formatMarkdown,
  formatJson,
  citation,
  LOGBOOK_FORMATS,
  type LogbookFormat,
} from './format.js';
export { logbookForProject, viewLogbook, workspaceForFolder, type LogbookQuery, type LogbookView } from './show.js';
export * from './types.js';
