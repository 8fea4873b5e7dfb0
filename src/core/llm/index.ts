// Owns the public surface of the LLM layer: the provider contract, configuration, the runner that
// history-index and logbook call, the task prompts and schemas, and the re-entrancy guard.
export type {
  LlmRequest,
  LlmReply,
  LlmUsage,
  LlmProvider,
  LlmCallContext,
  LlmTaskId,
  JsonShape,
  ProviderName,
  RawReply,
} from './types.js';
export { PROVIDER_NAMES } from './types.js';
export {
  LlmProviderError,
  LlmBudgetError,
  isBudgetError,
  parseRetryAfter,
  type ProviderErrorKind,
  type BudgetLimit,
} from './errors.js';
export {
  resolveLlmConfig,
  readLlmConfigFile,
  configFilePath,
  DEFAULT_MODELS,
  type LlmConfig,
  type LlmFlags,
  type LlmFileConfig,
  type ConfigOrigin,
} from './config.js';
export { createProvider, type ProviderDeps } from './create-provider.js';
export { configuredRunner } from './configured-runner.js';
export {
  LlmRunner,
  type LlmRunnerOptions,
  type LlmRunnerEvent,
  type RunnerReply,
  type MapOutcome,
  type MapFailure,
  type MapProgress,
  type LlmRunStats,
} from './runner.js';
export { createStoreCache, createMemoryCache, cacheKeyFor, type LlmCache, type CachedReply } from './cache.js';
export { estimateCost, priceFor } from './pricing.js';
export { checkLlm, type LlmCheckResult } from './check.js';
export { assertNotReentrant, isSubcall, subcallEnv, SUBCALL_ENV } from './reentrancy.js';
export { parseJsonReply, validateShape } from './json-shape.js';
export * from './prompts.js';
export * from './task-schemas.js';
export { createExtractiveProvider, answerExtractively, EXTRACTIVE_MODEL } from './providers/extractive.js';
export { summarizeSegment } from './extractive/summarize.js';
export { extractLogbookEvents } from './extractive/logbook.js';
