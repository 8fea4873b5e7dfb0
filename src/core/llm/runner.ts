// Owns LlmRunner, what the history index and the logbook call: a provider wrapped with the response
// cache, retries (429/5xx/timeouts, Retry-After), bounded concurrency, the spend guard (maxCalls /
// maxCost → BUDGET), one JSON repair then the extractive fallback, and per-run statistics.
import { countTokens } from '../../shared/tokenizer.js';
import { StrataError, describeError } from '../../shared/errors.js';
import { backoffDelay, createSemaphore, realSleep, type Sleep } from './backoff.js';
import { cacheKeyFor, type LlmCache } from './cache.js';
import { LlmBudgetError, LlmProviderError, type BudgetLimit } from './errors.js';
import { parseJsonReply, validateShape } from './json-shape.js';
import { estimateCost } from './pricing.js';
import { buildRepairRequest } from './prompts.js';
import { answerExtractively } from './providers/extractive.js';
import type { LlmProvider, LlmReply, LlmRequest } from './types.js';
import { createStats, type LlmRunStats, type StatsRecorder } from './run-stats.js';

export type { LlmRunStats } from './run-stats.js';

export interface LlmRunnerOptions {
  provider: LlmProvider;
  cache?: LlmCache | undefined;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Attempts per call including the first (default 3). */
  attempts?: number;
  /** Per-call timeout (default 60 s). */
  timeoutMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
  /** Spend guard: most provider calls (attempts) this run may make. */
  maxCalls?: number | undefined;
  /** Spend guard: most estimated USD this run may spend (checked before each call, worst case). */
  maxCost?: number | undefined;
  /** One repair call after invalid JSON (default true). */
  repairJson?: boolean;
  sleep?: Sleep;
  random?: () => number;
  onEvent?: (event: LlmRunnerEvent) => void;
}

export type LlmRunnerEvent =
  | { type: 'retry'; id?: string; attempt: number; delayMs: number; reason: string }
  | { type: 'repair'; id?: string; reason: string }
  | { type: 'fallback'; id?: string; reason: string }
  | { type: 'budget'; limit: BudgetLimit };

export interface RunnerReply<T> extends LlmReply<T> {
  /** model: a provider call answered; cache: the response cache did; fallback: the extractive provider did. */
  source: 'model' | 'cache' | 'fallback';
  /** Provider calls this reply took (0 for cache and local answers). */
  calls: number;
  id?: string;
}

export interface MapFailure {
  index: number;
  id?: string;
  error: StrataError;
}

export interface MapOutcome<T> {
  /** Same order as the requests; undefined where the item failed or was not run (budget stop). */
  results: Array<RunnerReply<T> | undefined>;
  failures: MapFailure[];
  /** Set when the spend guard stopped the run; the results gathered so far are kept. */
  budget: LlmBudgetError | null;
  stats: LlmRunStats;
}

export interface MapProgress {
  done: number;
  total: number;
  index: number;
  id?: string;
  source?: RunnerReply<unknown>['source'];
  error?: string;
}

export class LlmRunner {
  readonly provider: LlmProvider;
  private readonly options: Required<
    Pick<LlmRunnerOptions, 'attempts' | 'timeoutMs' | 'baseDelayMs' | 'maxDelayMs' | 'maxRetryAfterMs' | 'repairJson'>
  > &
    LlmRunnerOptions;
  private readonly slots;
  private readonly recorder: StatsRecorder;
  private inflight = 0;
  private reservedCost = 0;
  private budget: LlmBudgetError | null = null;

  constructor(options: LlmRunnerOptions) {
    this.provider = options.provider;
    this.options = {
      attempts: 3,
      timeoutMs: 60_000,
      baseDelayMs: 1000,
      maxDelayMs: 30_000,
      maxRetryAfterMs: 60_000,
      repairJson: true,
      ...options,
    };
    this.slots = createSemaphore(options.concurrency ?? 4);
    this.recorder = createStats(options.provider.name, options.provider.model);
  }

  stats(): LlmRunStats {
    return this.recorder.snapshot(this.budget?.limit ?? null);
  }

  /** One sub-call. Throws LlmBudgetError when the spend guard refuses, LlmProviderError when it fails. */
  async complete<T>(request: LlmRequest<T>): Promise<RunnerReply<T>> {
    const id = request.id;
    if (!this.provider.networked) {
      const reply = await this.provider.complete(request, { timeoutMs: this.options.timeoutMs });
      this.recorder.local();
      return { ...reply, source: 'model', calls: 0, ...(id ? { id } : {}) };
    }
    const key = this.options.cache ? cacheKeyFor(this.provider.name, this.provider.model, request) : undefined;
    if (key && this.options.cache) {
      const hit = this.options.cache.get(key.key);
      const parsed = hit && request.json ? parseJsonReply<T>(hit.text, request.json) : undefined;
      if (hit && (!parsed || parsed.ok)) {
        this.recorder.cacheHit();
        return {
          provider: this.provider.name,
          model: this.provider.model,
          text: hit.text,
          usage: { inputTokens: hit.inputTokens, outputTokens: hit.outputTokens },
          costUsd: 0,
          priceKnown: true,
          source: 'cache',
          calls: 0,
          ...(parsed?.ok ? { json: parsed.value } : {}),
          ...(id ? { id } : {}),
        };
      }
    }
    let calls = 0;
    const call = async (req: LlmRequest<T>): Promise<LlmReply<T>> => {
      const release = await this.slots.acquire();
      try {
        for (let attempt = 1; ; attempt++) {
          const reservation = this.reserve(req);
          calls++;
          let failure: LlmProviderError;
          try {
            const reply = await this.provider.complete(req, { timeoutMs: this.options.timeoutMs });
            this.recorder.call(reply.usage.inputTokens, reply.usage.outputTokens, reply.costUsd, reply.priceKnown);
            return reply;
          } catch (error) {
            failure =
              error instanceof LlmProviderError
                ? error
                : new LlmProviderError('network', describeError(error), { cause: error });
            const spent = failure.spent ?? { inputTokens: 0, outputTokens: 0, costUsd: 0, priceKnown: true };
            this.recorder.call(spent.inputTokens, spent.outputTokens, spent.costUsd, spent.priceKnown);
          } finally {
            this.unreserve(reservation);
          }
          if (!failure.retryable || attempt >= this.options.attempts) throw failure;
          const delayMs = backoffDelay(attempt, failure.retryAfterMs, {
            ...this.options,
            random: this.options.random ?? Math.random,
          });
          this.recorder.retry();
          this.options.onEvent?.({ type: 'retry', ...(id ? { id } : {}), attempt, delayMs, reason: failure.message });
          await (this.options.sleep ?? realSleep)(delayMs);
        }
      } finally {
        release();
      }
    };
    let reply: LlmReply<T>;
    try {
      reply = await call(request);
    } catch (error) {
      if (
        !(error instanceof LlmProviderError) ||
        !request.json ||
        (error.kind !== 'invalid_json' && error.kind !== 'empty_reply')
      )
        throw error;
      reply = await this.recover(request, error, call, () => calls);
      if ((reply as RunnerReply<T>).source === 'fallback') return { ...(reply as RunnerReply<T>), calls };
    }
    if (key && this.options.cache) {
      this.options.cache.set(key, {
        text: reply.text,
        inputTokens: reply.usage.inputTokens,
        outputTokens: reply.usage.outputTokens,
        costUsd: reply.costUsd,
      });
    }
    return { ...reply, source: 'model', calls, ...(id ? { id } : {}) };
  }

  /** Invalid JSON: one repair call, then the extractive answer for the item (recorded in the stats). */
  private async recover<T>(
    request: LlmRequest<T>,
    error: LlmProviderError,
    call: (r: LlmRequest<T>) => Promise<LlmReply<T>>,
    calls: () => number,
  ): Promise<LlmReply<T>> {
    let reason = error.message;
    if (this.options.repairJson) {
      this.options.onEvent?.({ type: 'repair', ...(request.id ? { id: request.id } : {}), reason });
      try {
        const repaired = await call(buildRepairRequest(request, error.replyText ?? '', error.message));
        this.recorder.repair();
        return repaired;
      } catch (repairError) {
        if (repairError instanceof LlmBudgetError) throw repairError;
        reason = describeError(repairError);
      }
    }
    const answer = answerExtractively(request);
    const checked = answer === undefined || !request.json ? undefined : validateShape<T>(answer, request.json);
    if (!checked?.ok) throw error;
    this.recorder.fallback();
    this.options.onEvent?.({ type: 'fallback', ...(request.id ? { id: request.id } : {}), reason });
    const fallback: RunnerReply<T> = {
      provider: 'extractive',
      model: 'extractive-v1',
      text: JSON.stringify(answer),
      json: checked.value,
      usage: { inputTokens: 0, outputTokens: 0 },
      costUsd: 0,
      priceKnown: true,
      source: 'fallback',
      calls: calls(),
      ...(request.id ? { id: request.id } : {}),
    };
    return fallback;
  }

  /** Spend guard: refuses a call that could pass maxCalls or maxCost (in-flight calls count as spent). */
  private reserve(request: LlmRequest): number {
    if (this.budget) throw this.budget;
    const { maxCalls, maxCost } = this.options;
    const spent = this.recorder.snapshot(null);
    let limit: BudgetLimit | undefined;
    let estimate = 0;
    if (maxCalls !== undefined && spent.calls + this.inflight >= maxCalls) limit = 'maxCalls';
    if (!limit && maxCost !== undefined) {
      estimate = estimateCost(
        this.provider.model,
        countTokens((request.system ?? '') + request.prompt),
        request.maxTokens,
      ).costUsd;
      if (spent.estimatedCostUsd + this.reservedCost + estimate > maxCost) limit = 'maxCost';
    }
    if (limit) {
      // Calls still in flight were made too: the message counts them.
      this.budget = new LlmBudgetError(limit, {
        calls: spent.calls + this.inflight,
        costUsd: spent.estimatedCostUsd,
        ...(maxCalls !== undefined ? { maxCalls } : {}),
        ...(maxCost !== undefined ? { maxCost } : {}),
      });
      this.options.onEvent?.({ type: 'budget', limit });
      throw this.budget;
    }
    this.inflight++;
    this.reservedCost += estimate;
    return estimate;
  }

  private unreserve(estimate: number): void {
    this.inflight--;
    this.reservedCost -= estimate;
  }

  /** Runs many sub-calls with bounded concurrency; stops cleanly at a budget stop, keeping what finished. */
  async map<T>(
    requests: ReadonlyArray<LlmRequest<T>>,
    onProgress?: (progress: MapProgress) => void,
  ): Promise<MapOutcome<T>> {
    const results: Array<RunnerReply<T> | undefined> = new Array(requests.length).fill(undefined);
    const failures: MapFailure[] = [];
    let next = 0;
    let done = 0;
    const worker = async (): Promise<void> => {
      while (next < requests.length && !this.budget) {
        const index = next++;
        const request = requests[index]!;
        try {
          results[index] = await this.complete(request);
          onProgress?.({
            done: ++done,
            total: requests.length,
            index,
            ...(request.id ? { id: request.id } : {}),
            source: results[index]!.source,
          });
        } catch (error) {
          if (error instanceof LlmBudgetError) break;
          this.recorder.failure();
          const failure =
            error instanceof StrataError ? error : new StrataError('PROVIDER', describeError(error), { cause: error });
          failures.push({ index, ...(request.id ? { id: request.id } : {}), error: failure });
          onProgress?.({
            done: ++done,
            total: requests.length,
            index,
            ...(request.id ? { id: request.id } : {}),
            error: failure.message,
          });
        }
      }
    };
    const workers = Math.max(1, Math.min(this.options.concurrency ?? 4, requests.length));
    await Promise.all(Array.from({ length: workers }, worker));
    failures.sort((a, b) => a.index - b.index);
    return { results, failures, budget: this.budget, stats: this.stats() };
  }
}
