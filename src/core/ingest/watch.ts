// Owns `ingest --watch`: one watcher per store (a lock file beside it; a second watcher gets LOCKED),
// recursive fs.watch over the roots (no polling: an idle watcher uses no CPU), changed files collected
// and ingested after a quiet period, one file at a time so a stop request is honoured between files.
// A store lock held by another writer leaves the changed files pending for the next round. Between rounds
// it does what waits for any writer: files a hook queued (deferred.ts), and a scan with newer secret rules,
// one bounded step per quiet period until it is done.
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Store } from '../../store/db.js';
import type { AgentName } from '../../shared/model.js';
import type { Env } from '../../shared/paths.js';
import { StrataError, describeError } from '../../shared/errors.js';
import { acquireLock } from '../../shared/file-lock.js';
import { ADAPTERS } from '../../sources/registry.js';
import { RESCAN_BATCHES_PER_RUN, ingest, type IngestOptions } from './ingest.js';
import { pendingDeferred } from './deferred.js';
import { rescanSlice, type RescanSlice } from '../redaction/rescan-store.js';
import { rescanPending } from '../redaction/rescan-pending.js';
import type { IngestReport } from './report.js';

export interface WatchOptions {
  store: Store;
  /** Files or folders; empty = the default roots of the selected agents. */
  paths: string[];
  agents?: AgentName[];
  redact?: boolean;
  env: Env;
  cwd: string;
  /** Quiet period after the last change before ingesting (default 300 ms). */
  debounceMs?: number;
  /** Stops the watcher; a file being ingested is finished first. */
  signal: AbortSignal;
  onWatching?: (roots: string[]) => void;
  onBatch?: (batch: { files: number; messagesAdded: number; deferred: number; problems: string[] }) => void;
  /** After each step of a scan with newer secret rules. */
  onRescan?: (slice: RescanSlice) => void;
  ingestFn?: (options: IngestOptions) => Promise<IngestReport>;
}

export function watchLockPath(store: Store): string {
  return `${store.path}.watch.lock`;
}

/** Folders and files to watch: existing given paths, else the existing default roots. */
export function watchRoots(options: Pick<WatchOptions, 'paths' | 'agents' | 'env' | 'cwd'>): string[] {
  const adapters = ADAPTERS.filter((a) => !options.agents || options.agents.includes(a.agent));
  const candidates =
    options.paths.length > 0
      ? options.paths.map((p) => resolve(options.cwd, p))
      : adapters.flatMap((a) => a.defaultRoots(options.env));
  return [...new Set(candidates)].filter((p) => existsSync(p));
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Watches until `signal` aborts; resolves once the last ingest has finished and the lock is released. */
export async function watchAndIngest(options: WatchOptions): Promise<void> {
  const roots = watchRoots(options);
  if (roots.length === 0)
    throw new StrataError('NOT_FOUND', 'nothing to watch: none of the paths (or default locations) exists');
  const lock = acquireLock(watchLockPath(options.store), { timeoutMs: 0, command: 'strata ingest --watch' });
  const run = options.ingestFn ?? ingest;
  const debounceMs = options.debounceMs ?? 300;
  const pending = new Set<string>();
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let draining: Promise<void> | undefined;
  let rescanTimer: NodeJS.Timeout | undefined;

  /** Queued files join the next round; one bounded step of a pending scan runs under the store lock. */
  const pendingWork = () => {
    if (options.signal.aborted) return;
    const queued = pendingDeferred(options.store.path).entries.flatMap((e) => e.paths);
    if (queued.some((file) => !pending.has(file))) {
      for (const file of queued) pending.add(file);
      schedule();
    }
    if (options.redact === false || !rescanPending(options.store.db)) return;
    try {
      const storeLock = acquireLock(`${options.store.path}.lock`, { timeoutMs: 0, command: 'strata ingest --watch' });
      try {
        options.onRescan?.(rescanSlice(options.store, RESCAN_BATCHES_PER_RUN));
      } finally {
        storeLock.release();
      }
    } catch (error) {
      if (!(error instanceof StrataError && error.code === 'LOCKED')) {
        // Not retried: the next `strata ingest` or `strata redact` says what is wrong.
        options.onBatch?.({ files: 0, messagesAdded: 0, deferred: 0, problems: [`rescan: ${describeError(error)}`] });
        return;
      }
    }
    if (rescanPending(options.store.db)) rescanTimer = setTimeout(pendingWork, debounceMs);
  };

  const schedule = () => {
    if (timer) clearTimeout(timer);
    if (!options.signal.aborted) timer = setTimeout(() => void drain(), debounceMs);
  };
  const drain = async (): Promise<void> => {
    if (draining) return draining;
    draining = (async () => {
      const batch = { files: 0, messagesAdded: 0, deferred: 0, problems: [] as string[] };
      for (const file of [...pending]) {
        if (options.signal.aborted) break;
        pending.delete(file);
        if (!isRegularFile(file)) continue;
        try {
          const report = await run({
            store: options.store,
            paths: [file],
            ...(options.agents ? { agents: options.agents } : {}),
            redact: options.redact ?? true,
            env: options.env,
            cwd: options.cwd,
            lockTimeoutMs: 0,
          });
          if (report.filesIngested > 0) batch.files++;
          batch.messagesAdded += report.messagesAdded;
          batch.problems.push(...report.problems.map((p) => `${p.path}: ${p.reason}`));
        } catch (error) {
          if (error instanceof StrataError && error.code === 'LOCKED') {
            pending.add(file);
            batch.deferred++;
          } else batch.problems.push(`${file}: ${describeError(error)}`);
        }
      }
      if (batch.files > 0 || batch.deferred > 0 || batch.problems.length > 0) options.onBatch?.(batch);
    })().finally(() => {
      draining = undefined;
      // Changes that arrived while ingesting, or files another writer kept us from, go in the next round.
      if (pending.size > 0) schedule();
      else pendingWork();
    });
    return draining;
  };

  try {
    for (const root of roots) {
      const isDir = statSync(root).isDirectory();
      const base = isDir ? root : dirname(root);
      const watcher = watch(base, { recursive: isDir, persistent: true }, (_event, name) => {
        if (!name) return;
        const file = join(base, name.toString());
        if (!isDir && file !== root) return;
        pending.add(file);
        schedule();
      });
      watcher.on('error', () => {});
      watchers.push(watcher);
    }
    options.onWatching?.(roots);
    pendingWork();
    await new Promise<void>((resolveStop) => {
      if (options.signal.aborted) return resolveStop();
      options.signal.addEventListener('abort', () => resolveStop(), { once: true });
    });
  } finally {
    if (timer) clearTimeout(timer);
    if (rescanTimer) clearTimeout(rescanTimer);
    for (const w of watchers) w.close();
    await draining;
    lock.release();
  }
}
