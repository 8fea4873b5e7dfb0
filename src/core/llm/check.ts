// Owns `llm check`: asks the configured provider one tiny question, through the runner like every other
// call (429/5xx retried with backoff and Retry-After), and reports whether it answered, with a one-line
// reason when it did not.
import { describeError } from '../../shared/errors.js';
import type { LlmConfig } from './config.js';
import { createProvider, type ProviderDeps } from './create-provider.js';
import { buildSegmentSummaryRequest } from './prompts.js';
import type { LlmRequest } from './types.js';
import { LlmRunner, type LlmRunnerEvent } from './runner.js';
import type { Sleep } from './backoff.js';

export interface LlmCheckResult {
  ok: boolean;
  provider: string;
  model: string;
  baseUrl?: string;
  origin: LlmConfig['origin'];
  latencyMs: number;
  /** The first line of the answer, when there was one. */
  reply?: string;
  reason?: string;
  /** Provider calls made, retries included. */
  calls?: number;
}

/** Attempts per check, as for summaries: the first call and up to three retries. */
const CHECK_ATTEMPTS = 4;

export async function checkLlm(
  config: LlmConfig,
  deps: ProviderDeps & { now?: () => number; sleep?: Sleep; onEvent?: (event: LlmRunnerEvent) => void } = {},
): Promise<LlmCheckResult> {
  const now = deps.now ?? Date.now;
  const base = {
    provider: config.provider,
    model: config.model,
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    origin: config.origin,
  };
  const started = now();
  try {
    const provider = createProvider(config, deps);
    const request: LlmRequest =
      config.provider === 'extractive'
        ? buildSegmentSummaryRequest({
            segmentId: 'check',
            content:
              'user: Check that strata answers.\nassistant: We decided to keep the extractive provider as the ' +
              'default because it runs offline.',
          })
        : { system: 'Answer with one word.', prompt: 'Reply with the word OK.', maxTokens: 16 };
    const runner = new LlmRunner({
      provider,
      attempts: CHECK_ATTEMPTS,
      timeoutMs: Math.min(config.timeoutMs, 30_000),
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      ...(deps.onEvent ? { onEvent: deps.onEvent } : {}),
    });
    const reply = await runner.complete(request);
    return {
      ok: true,
      ...base,
      latencyMs: now() - started,
      reply: (reply.text.split('\n')[0] ?? '').slice(0, 120),
      calls: reply.calls,
    };
  } catch (error) {
    return {
      ok: false,
      ...base,
      latencyMs: now() - started,
      reason: describeError(error).split('\n')[0] ?? 'unknown error',
    };
  }
}
