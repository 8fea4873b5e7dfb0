// Owns the per-run LLM statistics: provider calls, retries, cache hits, tokens, estimated cost (with an
// "unknown price" flag), JSON repairs, extractive fallbacks, failures and the budget stop.
import type { BudgetLimit } from './errors.js';

export interface LlmRunStats {
  provider: string;
  model: string;
  /** Requests sent to the provider (every attempt counts). */
  calls: number;
  retries: number;
  cacheHits: number;
  /** Answers computed locally (extractive provider), no call made. */
  localAnswers: number;
  inputTokens: number;
  outputTokens: number;
  estimatedCostUsd: number;
  /** False when some call's model is not in the price table (its cost counted as 0). */
  priceKnown: boolean;
  jsonRepairs: number;
  fallbacks: number;
  failures: number;
  budgetStopped: BudgetLimit | null;
}

export interface StatsRecorder {
  call(inputTokens: number, outputTokens: number, costUsd: number, priceKnown: boolean): void;
  retry(): void;
  cacheHit(): void;
  local(): void;
  repair(): void;
  fallback(): void;
  failure(): void;
  snapshot(budget: BudgetLimit | null): LlmRunStats;
}

export function createStats(provider: string, model: string): StatsRecorder {
  const s: LlmRunStats = {
    provider,
    model,
    calls: 0,
    retries: 0,
    cacheHits: 0,
    localAnswers: 0,
    inputTokens: 0,
    outputTokens: 0,
    estimatedCostUsd: 0,
    priceKnown: true,
    jsonRepairs: 0,
    fallbacks: 0,
    failures: 0,
    budgetStopped: null,
  };
  return {
    call(inputTokens, outputTokens, costUsd, priceKnown) {
      s.calls++;
      s.inputTokens += inputTokens;
      s.outputTokens += outputTokens;
      s.estimatedCostUsd += costUsd;
      if (!priceKnown) s.priceKnown = false;
    },
    retry: () => void s.retries++,
    cacheHit: () => void s.cacheHits++,
    local: () => void s.localAnswers++,
    repair: () => void s.jsonRepairs++,
    fallback: () => void s.fallbacks++,
    failure: () => void s.failures++,
    snapshot: (budget) => ({ ...s, budgetStopped: budget }),
  };
}
