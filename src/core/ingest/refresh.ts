// Owns keeping a long-running reader fresh: an incremental ingest of the default roots when the last one
// is older than a maximum age or work waits for a writer, never waiting for another writer (a held lock
// means "answer from what is stored"). The time of the last refresh lives in a small file under the data directory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../../store/db.js';
import { dataDir, type Env } from '../../shared/paths.js';
import { StrataError, describeError } from '../../shared/errors.js';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import type { IngestOptions } from './ingest.js';
import type { IngestReport } from './report.js';
import { hasDeferred } from './deferred.js';
import { rescanPending } from '../redaction/rescan-pending.js';

export const LAST_INGEST_FILE = 'last-ingest.json';

export type RefreshOutcome = 'fresh' | 'ingested' | 'locked' | 'failed';

export interface RefresherOptions {
  store: Store;
  env: Env;
  cwd: string;
  /** A refresh older than this is redone before the next read (0: before every read). */
  maxAgeMs: number;
  now?: () => number;
  ingestFn?: (options: IngestOptions) => Promise<IngestReport>;
  /**
   * Work waiting for any writer (a hook's deferred ingest, a scan with newer secret rules): a refresh runs
   * for it even when fresh (default: both are checked).
   */
  pendingWork?: () => boolean;
  /** Told about failures other than a held lock (the refresh itself never throws). */
  onError?: (message: string) => void;
}

export function lastIngestPath(env: Env): string {
  return join(dataDir(env), LAST_INGEST_FILE);
}

/** Milliseconds since the epoch of the last recorded ingest of the default roots, or 0. */
export function readLastIngest(env: Env): number {
  try {
    const value = JSON.parse(readFileSync(lastIngestPath(env), 'utf8')) as { at?: unknown };
    const at = typeof value.at === 'string' ? Date.parse(value.at) : NaN;
    return Number.isFinite(at) ? at : 0;
  } catch {
    return 0;
  }
}

export function recordLastIngest(env: Env, at: number): void {
  writeFileAtomic(lastIngestPath(env), JSON.stringify({ at: new Date(at).toISOString() }) + '\n');
}

/** Returns a function that refreshes the store when stale; concurrent calls share one ingest. */
export function createRefresher(options: RefresherOptions): () => Promise<RefreshOutcome> {
  const now = options.now ?? Date.now;
  // The ingest engine (every adapter) loads on the first refresh, not when a server starts.
  const run = options.ingestFn ?? (async (o: IngestOptions) => (await import('./ingest.js')).ingest(o));
  const pendingWork = options.pendingWork ?? (() => hasDeferred(options.store.path) || rescanPending(options.store.db));
  let inFlight: Promise<RefreshOutcome> | undefined;
  async function refreshOnce(): Promise<RefreshOutcome> {
    const started = now();
    if (started - readLastIngest(options.env) < options.maxAgeMs && !pendingWork()) return 'fresh';
    try {
      await run({ store: options.store, paths: [], env: options.env, cwd: options.cwd, lockTimeoutMs: 0 });
      recordLastIngest(options.env, started);
      return 'ingested';
    } catch (error) {
      if (error instanceof StrataError && error.code === 'LOCKED') return 'locked';
      options.onError?.(`refresh failed: ${describeError(error)}`);
      return 'failed';
    }
  }
  return () => {
    inFlight ??= refreshOnce().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
