// Owns the ordered list of migrations. Versions are reserved per capability:
// 1 core, 2 retrieval, 3 llm cache, 4 search hit index, 5 session listing, 6 ingest batches,
// 7 tool-input words, 8 unused indexes, 9 message history, 10 commit outcomes, 11 logbooks, 12 (reserved),
// 13 redaction state, 14 strata echoes, 15 activity days, 16 model tokens, 17 message hits, 18+ next.
import type { Migration } from './types.js';
import { coreMigration } from './001-core.js';
import { retrievalMigration } from './002-retrieval.js';
import { llmCacheMigration } from './003-llm-cache.js';
import { searchHitsMigration } from './004-search-hits.js';
import { sessionListingMigration } from './005-session-listing.js';
import { ingestBatchesMigration } from './006-ingest-batches.js';
import { toolInputWordsMigration } from './007-tool-input-words.js';
import { unusedIndexesMigration } from './008-unused-indexes.js';
import { messageHistoryMigration } from './009-message-history.js';
import { commitOutcomesMigration } from './010-commit-outcomes.js';
import { logbookMigration } from './011-logbook.js';
import { redactionStateMigration } from './013-redaction-state.js';
import { strataEchoesMigration } from './014-strata-echoes.js';
import { activityDaysMigration } from './015-activity-days.js';
import { modelTokensMigration } from './016-model-tokens.js';
import { messageHitsMigration } from './017-message-hits.js';

export const MIGRATIONS: Migration[] = [
  coreMigration,
  retrievalMigration,
  llmCacheMigration,
  searchHitsMigration,
  sessionListingMigration,
  ingestBatchesMigration,
  toolInputWordsMigration,
  unusedIndexesMigration,
  messageHistoryMigration,
  commitOutcomesMigration,
  logbookMigration,
  redactionStateMigration,
  strataEchoesMigration,
  activityDaysMigration,
  modelTokensMigration,
  messageHitsMigration,
];
export type { Migration };
