// Owns the retry timing and the concurrency limit of the runner: exponential backoff with jitter that
// honours Retry-After, an injectable sleep (tests never wait on the wall clock), and a semaphore.

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export interface BackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  /** Retry-After values above this are capped (a server asking for an hour does not stall a run). */
  maxRetryAfterMs: number;
  random: () => number;
}

/** Delay before retry number `retry` (1-based): Retry-After when given, else base·2^(retry-1) with jitter. */
export function backoffDelay(retry: number, retryAfterMs: number | undefined, options: BackoffOptions): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), options.maxRetryAfterMs);
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.round(exponential * (0.5 + options.random() / 2));
}

export interface Semaphore {
  acquire(): Promise<() => void>;
  readonly active: number;
}

export function createSemaphore(limit: number): Semaphore {
  const max = Math.max(1, Math.floor(limit));
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    active--;
    const next = waiting.shift();
    if (next) {
      active++;
      next();
    }
  };
  return {
    get active() {
      return active;
    },
    acquire() {
      if (active < max) {
        active++;
        return Promise.resolve(once(release));
      }
      return new Promise((resolve) => waiting.push(() => resolve(once(release))));
    },
  };
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      fn();
    }
  };
}
