// Owns strata's error hierarchy: one base class with a stable `code`, and the exit codes the CLI maps them to.

export type StrataErrorCode =
  | 'USAGE'
  | 'NOT_FOUND'
  | 'AMBIGUOUS'
  | 'INVALID_QUERY'
  | 'LOCKED'
  | 'STORE_TOO_NEW'
  | 'STORE_CORRUPT'
  | 'INVALID_INPUT'
  | 'SCHEMA'
  | 'CONFIG'
  | 'PROVIDER'
  | 'BUDGET'
  | 'IO'
  | 'NO_MATCH'
  | 'INTERNAL';

/** Exit codes documented in the README. */
export const EXIT_CODES = {
  ok: 0,
  runtime: 1,
  /** `search` found nothing (as grep: 0 hits, 1 none, 2 errors). */
  noMatch: 1,
  usage: 2,
  locked: 3,
  store: 4,
} as const;

export class StrataError extends Error {
  readonly code: StrataErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: StrataErrorCode, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StrataError';
    this.code = code;
    this.details = options?.details;
  }

  get exitCode(): number {
    switch (this.code) {
      case 'USAGE':
      case 'NOT_FOUND':
      case 'AMBIGUOUS':
      case 'INVALID_QUERY':
        return EXIT_CODES.usage;
      case 'NO_MATCH':
        return EXIT_CODES.noMatch;
      case 'LOCKED':
        return EXIT_CODES.locked;
      case 'STORE_TOO_NEW':
      case 'STORE_CORRUPT':
        return EXIT_CODES.store;
      default:
        return EXIT_CODES.runtime;
    }
  }
}

export function usageError(message: string, details?: Record<string, unknown>): StrataError {
  return new StrataError('USAGE', message, details ? { details } : undefined);
}

export function isStrataError(error: unknown): error is StrataError {
  return error instanceof StrataError;
}

/** One-line description of any thrown value, for reports that must not carry stacks. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !(error instanceof StrataError) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
