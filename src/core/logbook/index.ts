// Owns the public surface of the project logbook: the run, the loop, the stored document and its views.
export { runLogbook } from './run-logbook.js';
export {
  buildLogbook,
  type BuildOptions,
} from './build-logbook.js';
export {
  listConversations,
  loadConversation,
} from './conversations.js';
export { chunkConversation } from './chunker.js';
export { deduplicateTimeline, contentTokens, similarity } from './dedupe.js';
export { normalizeEvents } from './event-normalize.js';
export { emptyLogbook, readStoredLogbook } from './document.js';
export { validateLogbook } from './schema.js';
export { formatLogbook } from './format.js';
export { logbookForProject } from './show.js';
export * from './types.js';
