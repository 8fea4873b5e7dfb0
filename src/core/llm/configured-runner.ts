// Owns the runner a command builds from a resolved LLM configuration: its concurrency, timeout and spend
// guard, 4 attempts per call (3 retries with backoff), and a one-line note for each retry.
import type { LlmCache } from './cache.js';
import type { LlmConfig } from './config.js';
import { LlmRunner } from './runner.js';
import type { LlmProvider } from './types.js';

export function configuredRunner(
  config: LlmConfig,
  provider: LlmProvider,
  options: { cache?: LlmCache | undefined; onRetry?: (line: string) => void },
): LlmRunner {
  const { onRetry } = options;
  return new LlmRunner({
    provider,
    cache: options.cache,
    concurrency: config.concurrency,
    attempts: 4,
    timeoutMs: config.timeoutMs,
    maxCalls: config.maxCalls,
    maxCost: config.maxCost,
    ...(onRetry
      ? {
          onEvent: (e) =>
            e.type === 'retry' &&
            onRetry(`retrying ${e.id ?? 'a call'} in ${Math.round(e.delayMs / 100) / 10} s (${e.reason})`),
        }
      : {}),
  });
}
