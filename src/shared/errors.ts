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

  constructor(
    code: StrataErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
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

/** One-line description of any thrown value, for reports that must not carry stacks. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !(error instanceof StrataError) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

// SQLite reports a damaged file as SQLITE_CORRUPT (and its extended codes) or SQLITE_NOTADB; some callers
// rewrap the error with its message only, so the message SQLite gives those codes is recognised too.
const CORRUPTION_CODE = /^SQLITE_(CORRUPT|NOTADB)/;
const CORRUPTION_MESSAGE = /database disk image is malformed|file is not a database/i;

/** True when `error` (or anything in its cause chain) says a SQLite database file is damaged. */
export function isCorruptDatabaseError(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof StrataError && e.code === 'STORE_CORRUPT') return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CORRUPTION_CODE.test(code)) return true;
    if (e instanceof Error && CORRUPTION_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/** The one message for a damaged database (exit 4); the file is named when known. */
export function corruptStoreError(path: string | undefined, cause: unknown): StrataError {
  const what = path ? `the store ${path}` : 'the store';
  const reason = describeError(cause)
    .replace(/^invalid query: /, '')
    .replace(/\*\*\* in database \w+ \*\*\*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return new StrataError(
    'STORE_CORRUPT',
    `${what} is unusable (corrupted: ${reason}); it was left untouched. Move it away (or set STRATA_HOME to another ` +
      `folder) and run \`strata ingest\` to start a new one, or restore a backup.`,
    { cause },
  );
}
