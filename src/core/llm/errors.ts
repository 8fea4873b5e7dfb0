// Owns the LLM layer's typed failures: provider errors classified for retry decisions, and the BUDGET
// condition the spend guard raises so callers can stop cleanly and keep partial results.
import { StrataError, describeError } from '../../shared/errors.js';

export type ProviderErrorKind =
  | 'rate_limit' // 429
  | 'server' // 5xx
  | 'timeout' // per-call timeout or SDK timeout
  | 'network' // connection refused/reset
  | 'auth' // 401/403
  | 'bad_request' // other 4xx
  | 'empty_reply' // the model answered nothing
  | 'invalid_json' // the reply is not JSON of the requested shape
  | 'unsupported' // the provider cannot answer this request
  | 'process'; // claude-cli exited non-zero / could not start

export interface SpentOnFailure {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  priceKnown: boolean;
}

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'server', 'timeout', 'network']);

export class LlmProviderError extends StrataError {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  /** Milliseconds the server asked us to wait (Retry-After), when it did. */
  readonly retryAfterMs: number | undefined;
  /** The raw reply text (invalid_json / empty_reply), for the repair attempt. */
  readonly replyText: string | undefined;
  /** Tokens and cost the failed call still consumed (a reply arrived but was unusable). */
  readonly spent: SpentOnFailure | undefined;

  constructor(
    kind: ProviderErrorKind,
    message: string,
    options: {
      status?: number;
      retryAfterMs?: number;
      replyText?: string;
      spent?: SpentOnFailure;
      cause?: unknown;
    } = {},
  ) {
    super('PROVIDER', message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LlmProviderError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.replyText = options.replyText;
    this.spent = options.spent;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

export type BudgetLimit = 'maxCalls' | 'maxCost';

/** Raised (by `complete`) or reported (by `map`) when the spend guard refuses another call. */
export class LlmBudgetError extends StrataError {
  readonly limit: BudgetLimit;
  readonly calls: number;
  readonly costUsd: number;

  constructor(limit: BudgetLimit, info: { calls: number; costUsd: number; maxCalls?: number; maxCost?: number }) {
    const what =
      limit === 'maxCalls'
        ? `the call limit (--max-calls ${info.maxCalls}) was reached after ${info.calls} calls`
        : `the next call could exceed the cost limit (--max-cost ${info.maxCost}); spent $${info.costUsd.toFixed(4)}`;
    super('BUDGET', `LLM budget stop: ${what}; partial results were kept`, { details: { limit, ...info } });
    this.name = 'LlmBudgetError';
    this.limit = limit;
    this.calls = info.calls;
    this.costUsd = info.costUsd;
  }
}

export function isBudgetError(error: unknown): error is LlmBudgetError {
  return error instanceof LlmBudgetError;
}

/** Parses a Retry-After header value (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Maps an SDK/transport error (Anthropic or OpenAI SDK, fetch, abort) to a classified provider error. */
export function classifySdkError(error: unknown, provider: string): LlmProviderError {
  if (error instanceof LlmProviderError) return error;
  const e = error as { status?: unknown; headers?: unknown; name?: unknown; constructor?: { name?: string } };
  const status = typeof e?.status === 'number' ? e.status : undefined;
  const ctor = e?.constructor?.name ?? '';
  const name = typeof e?.name === 'string' ? e.name : '';
  const message = describeError(error).split('\n')[0] ?? '';
  if (/Timeout/i.test(ctor) || /Timeout/i.test(name) || /timed? ?out/i.test(message)) {
    return new LlmProviderError('timeout', `${provider}: request timed out`, { cause: error });
  }
  if (status === undefined) {
    if (/Abort/i.test(ctor) || /Abort/i.test(name))
      return new LlmProviderError('timeout', `${provider}: request aborted`, { cause: error });
    return new LlmProviderError('network', `${provider}: connection failed (${message})`, { cause: error });
  }
  const retryAfterMs = parseRetryAfter(
    readHeader(e.headers, 'retry-after-ms')
      ? String(Number(readHeader(e.headers, 'retry-after-ms')) / 1000)
      : readHeader(e.headers, 'retry-after'),
  );
  const short = `${provider}: HTTP ${status}: ${message.replace(/^\d{3}\s*/, '')}`.slice(0, 300);
  if (status === 429) return new LlmProviderError('rate_limit', short, { status, retryAfterMs, cause: error });
  if (status >= 500 || status === 408 || status === 409)
    return new LlmProviderError('server', short, { status, retryAfterMs, cause: error });
  if (status === 401 || status === 403) return new LlmProviderError('auth', short, { status, cause: error });
  return new LlmProviderError('bad_request', short, { status, cause: error });
}

function readHeader(headers: unknown, name: string): string | undefined {
  if (!headers) return undefined;
  const h = headers as { get?: (n: string) => string | null };
  if (typeof h.get === 'function') return h.get(name) ?? undefined;
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
