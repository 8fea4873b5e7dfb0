// Owns `ingest`: for each source file, decide skip / append / re-ingest from its stored state, parse
// it with its adapter, redact secrets, and write it to the store in one transaction per file. Changed
// line sources are planned up front so a worker thread parses the next files while this one writes.
import { existsSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { assertIntact, type Store } from '../../store/db.js';
import { INLINE_FTS_BYTES, SessionWriter, type SourceRow, type WriteResult } from '../../store/session-writer.js';
import { SourceRegistry, type SourceProgress } from '../../store/source-registry.js';
import { startCheckpointer } from '../../store/checkpointer.js';
import type { AgentName, ParseOutput } from '../../shared/model.js';
import type { Env } from '../../shared/paths.js';
import { describeError, isCorruptDatabaseError } from '../../shared/errors.js';
import { acquireLock, type LockHolder } from '../../shared/file-lock.js';
import type { SourceAdapter } from '../../sources/types.js';
import { ADAPTERS } from '../../sources/registry.js';
import { resolveInputs, type SourceCandidate } from './resolve-inputs.js';
import { readRegularFileHead } from '../../shared/regular-file.js';
import { clearDeferred, pendingDeferred } from './deferred.js';
import { addDeferredInputs } from './deferred-inputs.js';
import { rescanSlice } from '../redaction/rescan-store.js';
import { createRedactor } from './redact.js';
import { applyParseOutput } from './apply.js';
import { checkParsedFields } from './field-checks.js';
import { isUnchanged, planLineSources } from './line-plan.js';
import { ensureSessionStats } from '../../store/session-stats.js';
import type { Database } from 'better-sqlite3';
import { countResult, emptyReport, mergeParseStats, type IngestReport } from './report.js';
import { ingestLines, type IngestDeps } from './ingest-lines.js';
import { BINARY_FILE, NUL_CHECK_BYTES, looksBinary, type PipelineMode, type PrefetchMode } from './pipeline/index.js';
import { LOW_MEMORY_MIN_BYTES, withLowMemoryMode } from '../../shared/memory.js';
import { stringifyJson } from '../../shared/bounded-json.js';

export interface IngestOptions {
  store: Store;
  /** Files or folders; empty = every adapter's default roots. */
  paths?: string[];
  agents?: AgentName[];
  redact?: boolean;
  env?: Env;
  cwd?: string;
  /** Lock file guarding the single writer (default: `<store>.lock`). */
  lockPath?: string;
  lockTimeoutMs?: number;
  onLockWait?: (holder: LockHolder | undefined) => void;
  onProgress?: (done: number, total: number, path: string) => void;
  adapters?: SourceAdapter[];
  /** How line sources are read: threads for a bulk (`auto`, by size), or always `inline` / `threaded`. */
  pipeline?: PipelineMode;
  /** Whether the read-ahead thread prefetches files from a slow disk: `auto` (once its reads are slow), `on`, `off`. */
  prefetch?: PrefetchMode;
  /**
   * Refreshes rows that capabilities above derive from the stored sessions (the session listing) at the end
   * of the run, still holding the writer lock.
   */
  afterWrite?: (db: Database) => void;
  /**
   * Batches of stored blocks this run scans again when the secret rules changed (see core/redaction): every
   * writer moves a pending scan on, a bounded step at a time (default RESCAN_BATCHES_PER_RUN; 0: none).
   */
  rescanBatches?: number;
}

/** 5 × 2,000 blocks: a hook's run stays short, and a scan of a 1M-block store is done in 100 runs. */
export const RESCAN_BATCHES_PER_RUN = 5;

export async function ingest(options: IngestOptions): Promise<IngestReport> {
  const started = performance.now();
  const env = options.env ?? process.env;
  const adapters = (options.adapters ?? ADAPTERS).filter((a) => !options.agents || options.agents.includes(a.agent));
  // Known files keep their agent unread if unchanged (a hint only: rows are loaded again under the lock below).
  const remembered = (options.paths ?? []).length > 0 ? new SourceRegistry(options.store.db).loadStats() : new Map();
  const cwd = options.cwd ?? process.cwd();
  const inputs = await resolveInputs(options.paths ?? [], adapters, env, cwd, remembered);
  // Work a writer deferred while the lock was held (a session-end hook) is done by this run, redacted.
  const deferred = options.redact === false ? { entries: [], unreadable: [] } : pendingDeferred(options.store.path);
  const deferredDone = [
    ...deferred.unreadable,
    ...(await addDeferredInputs(inputs, deferred.entries, options.adapters ?? ADAPTERS, env, cwd, remembered)),
  ];
  const lock = acquireLock(options.lockPath ?? `${options.store.path}.lock`, {
    timeoutMs: options.lockTimeoutMs ?? 30_000,
    command: 'strata ingest',
    onWait: options.onLockWait,
  });
  const report = emptyReport();
  try {
    report.roots = inputs.roots;
    for (const u of inputs.unreadable) report.problems.push(u);
    report.filesFailed += inputs.unreadable.length;
    report.filesSeen += inputs.unreadable.length + inputs.unclaimed.length;
    report.filesNotSession += inputs.unclaimed.length;
    report.notSession.push(...inputs.unclaimed);
    // Checkpoint the WAL every ~64 MB instead of every 4 MB while writing: each checkpoint fsyncs, and a
    // bulk ingest otherwise spends a tenth of its time there (a bulk ingest moves them to a thread, see
    // store/checkpointer.ts). Restored (and checkpointed) at the end.
    options.store.db.pragma(`wal_autocheckpoint = ${INGEST_WAL_AUTOCHECKPOINT_PAGES}`);
    const registry = new SourceRegistry(options.store.db);
    const writer = new SessionWriter(options.store.db);
    ensureSessionStats(options.store.db);
    // Blocks an interrupted ingest stored without indexing them (see session-writer.ts) are indexed first.
    report.blocksIndexedLate = writer.fts.catchUp();
    // Texts stored under older secret rules are scanned again before this run adds its own.
    const rescanBatches = options.rescanBatches ?? RESCAN_BATCHES_PER_RUN;
    if (options.redact !== false && rescanBatches > 0) rescanSlice(options.store, rescanBatches);
    const redactor = createRedactor(options.redact ?? true);
    const known = registry.loadAll();
    const total = inputs.files.length;
    const redact = options.redact ?? true;
    const { plans, batches } = planLineSources(inputs.files, known, {
      mode: options.pipeline ?? 'auto',
      prefetch: options.prefetch ?? 'auto',
      redact,
    });
    // A bulk ingest (threads read for it) checkpoints in the background; its index merges once it ends.
    const bulk = batches.threaded;
    const checkpointer = bulk
      ? startCheckpointer(options.store.db, options.store.path, INGEST_WAL_AUTOCHECKPOINT_PAGES)
      : undefined;
    writer.fts.setBulkMerging(bulk);
    const deps: IngestDeps = {
      registry,
      writer,
      redactor,
      store: options.store,
      report,
      plans,
      batches,
      lineRedactions: { count: 0, byKind: {} },
    };
    let done = 0;
    try {
      try {
        for (const candidate of inputs.files) {
          report.filesSeen++;
          try {
            await ingestOne(candidate, known.get(candidate.path), deps);
          } catch (error) {
            // Damage met while writing is the store's (exit 4); a damaged source database is this file's problem.
            if (isCorruptDatabaseError(error)) assertIntact(options.store.db, options.store.path);
            report.filesFailed++;
            report.problems.push({ path: candidate.path, reason: describeError(error) });
            // A new source's row went with its rolled-back transaction: it is stored with the error (unless
            // the file is gone, which the next run over its root archives as missing).
            const row =
              known.get(candidate.path) ??
              (existsSync(candidate.path) ? registry.ensure(candidate.path, candidate.adapter.agent) : undefined);
            if (row) registry.setStatus(row.id, 'error', describeError(error));
          }
          // Between files: write the deferred full-text rows once there are enough for one batch.
          writer.fts.maybeFlush();
          checkpointer?.betweenTransactions();
          options.onProgress?.(++done, total, candidate.path);
        }
      } finally {
        await batches.close();
      }
      // The checkpointer keeps copying the WAL while the last full-text rows and the listing are written
      // (on 1 GB these ~0.5 s ran alone after it stopped), and the bulk FTS5 settings last until then.
      writer.fts.flush();
      if (bulk) writer.fts.compact();
      if (report.filesIngested > 0) options.store.db.transaction(() => writer.linkParents())();
      // Sources gone from a scanned root, or from under a folder the user named, are archived.
      const named = (options.paths ?? []).map((p) => resolve(cwd, p));
      markMissingSources(
        known,
        inputs.files,
        adapters,
        registry,
        report,
        named.length === 0 ? undefined : named.filter(isFolder),
      );
      options.afterWrite?.(options.store.db);
      clearDeferred(deferredDone);
    } finally {
      try {
        if (bulk) writer.fts.setBulkMerging(false);
      } catch {
        // Not fatal, and not to hide an error already on its way: the next ingest sets them back.
      } finally {
        await checkpointer?.stop();
      }
    }
    report.redactions = redactor.count + deps.lineRedactions.count;
    report.redactionsByKind = { ...redactor.byKind };
    for (const [kind, n] of Object.entries(deps.lineRedactions.byKind))
      report.redactionsByKind[kind] = (report.redactionsByKind[kind] ?? 0) + n;
    for (const entry of redactor.entries) report.redactionsWhere.push(entry);
    report.durationMs = performance.now() - started;
    return report;
  } finally {
    restoreCheckpointing(options.store, report.bytesRead >= SMALL_RUN_BYTES);
    lock.release();
  }
}

/** WAL pages between automatic checkpoints during ingest (16,384 × 4 KiB = 64 MB). */
const INGEST_WAL_AUTOCHECKPOINT_PAGES = 16_384;
/** SQLite's default. */
const WAL_AUTOCHECKPOINT_PAGES = 1000;
/**
 * A run that parsed less leaves fewer WAL pages than SQLite's own threshold (WAL_AUTOCHECKPOINT_PAGES):
 * its checkpoint is left to the next commit, as for any small write (a hook's append need not wait for it).
 */
const SMALL_RUN_BYTES = 1_000_000;

function restoreCheckpointing(store: Store, checkpoint: boolean): void {
  try {
    store.db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    if (checkpoint) store.db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A closed or read-only handle: nothing to restore.
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Archives known sources that no longer exist: all of them, or only those under `folders` when given. */
function markMissingSources(
  known: Map<string, SourceRow>,
  found: SourceCandidate[],
  adapters: SourceAdapter[],
  registry: SourceRegistry,
  report: IngestReport,
  folders?: string[],
): void {
  const present = new Set(found.map((f) => f.path));
  const agents = new Set<string>(adapters.map((a) => a.agent));
  const prefixes = folders?.map((f) => (f.endsWith(sep) ? f : f + sep));
  for (const row of known.values()) {
    if (row.status === 'missing' || present.has(row.path) || !agents.has(row.agent)) continue;
    if (prefixes && !prefixes.some((prefix) => row.path.startsWith(prefix))) continue;
    if (existsSync(row.path)) continue;
    registry.markMissing(row.id);
    report.sourcesArchived++;
  }
}

async function ingestOne(candidate: SourceCandidate, row: SourceRow | undefined, deps: IngestDeps): Promise<void> {
  const { adapter, path } = candidate;
  const { report, registry } = deps;
  const stat = statSync(path);
  // Sources with a fingerprint (OpenCode) change without touching their own size/mtime (WAL, sibling
  // files): ingestWholeFile skips them by fingerprint instead.
  const statSkips = !(adapter.format === 'file' && adapter.fingerprint);
  if (statSkips && isUnchanged(row, stat)) {
    report.filesSkipped++;
    return;
  }
  // Only text formats can be told apart from binary junk by a NUL byte: SQLite sources (OpenCode) are binary.
  // A file read from its start is checked by its line job (which fails with BINARY_FILE), unopened here:
  // only one whose stored lines may be appended to is checked before.
  const readFromStart = row === undefined || row.offset === 0;
  if (
    adapter.format === 'lines' &&
    stat.size > 0 &&
    !readFromStart &&
    looksBinary(readRegularFileHead(path, NUL_CHECK_BYTES).bytes)
  ) {
    const source = row ?? registry.insert(path, adapter.agent);
    registry.setStatus(source.id, 'error', BINARY_FILE);
    report.filesFailed++;
    report.problems.push({ path, reason: BINARY_FILE });
    return;
  }
  if (adapter.format === 'lines') ingestLines(adapter, path, row, deps);
  else await ingestWholeFile(adapter, path, row ?? registry.insert(path, adapter.agent), stat.size, stat.mtimeMs, deps);
}

async function ingestWholeFile(
  adapter: Extract<SourceAdapter, { format: 'file' }>,
  path: string,
  source: SourceRow,
  size: number,
  mtimeMs: number,
  deps: IngestDeps,
): Promise<void> {
  const { writer, registry, report, redactor } = deps;
  const previousState = source.state ? (JSON.parse(source.state) as unknown) : undefined;
  const ctx = { path, previousState };
  const fingerprint = adapter.fingerprint?.(ctx) ?? null;
  if (fingerprint !== null && fingerprint === source.fingerprint && source.status === 'active') {
    registry.update(source.id, adapter.agent, {
      size,
      mtimeMs,
      offset: size,
      lines: source.lines,
      prefixHash: source.prefix_hash,
      fingerprint,
      state: source.state,
      status: 'active',
      statusReason: null,
      malformed: 0,
      skipped: 0,
    });
    report.filesSkipped++;
    return;
  }
  if (adapter.streamFile) {
    const streamed = () => ingestStreamedFile(adapter, ctx, source, size, mtimeMs, fingerprint, deps);
    await (size >= LOW_MEMORY_MIN_BYTES ? withLowMemoryMode(streamed) : streamed());
    return;
  }
  const output: ParseOutput = checkParsedFields(await adapter.parseFile(ctx));
  report.bytesRead += size;
  const result: WriteResult = { messagesAdded: 0, messagesUpdated: 0, blocksAdded: 0 };
  const stats = { malformed: 0, skipped: 0 };
  mergeParseStats(report, path, output, stats);
  writer.withFileTransaction(
    () => {
      // A parse that hit malformed content (a truncated tail) may be missing messages: keep the old ones.
      const keepMissing = output.malformed.length > 0 ? new Set<string>() : undefined;
      if (!output.notSession)
        applyParseOutput(writer, source.id, adapter.agent, output, 'replace', redactor, result, keepMissing);
      writer.refreshTouchedSessions();
      registry.update(
        source.id,
        adapter.agent,
        wholeFileProgress(size, mtimeMs, output.messages.length, fingerprint, output, stats),
      );
    },
    { inline: size >= INLINE_FTS_BYTES },
  );
  countResult(report, result, output.notSession, path);
}

/** The stored state of a whole-file source after a parse (its offset is its size: nothing is pending). */
function wholeFileProgress(
  size: number,
  mtimeMs: number,
  lines: number,
  fingerprint: string | null,
  parsed: Pick<ParseOutput, 'notSession' | 'state'>,
  stats: { malformed: number; skipped: number },
): SourceProgress {
  return {
    size,
    mtimeMs,
    offset: size,
    lines,
    prefixHash: null,
    fingerprint,
    state: parsed.state === undefined ? null : (stringifyJson(parsed.state) ?? null),
    status: parsed.notSession ? 'not_session' : 'active',
    statusReason: parsed.notSession ?? null,
    malformed: stats.malformed,
    skipped: stats.skipped,
  };
}

/**
 * Bounded-memory whole-file ingest: chunks are written as the adapter emits them, inside the file's one
 * transaction, rolled back on any failure; messages of this source
 * that the new parse no longer has are archived at the end (never deleted).
 */
async function ingestStreamedFile(
  adapter: Extract<SourceAdapter, { format: 'file' }>,
  ctx: { path: string; previousState?: unknown },
  source: SourceRow,
  size: number,
  mtimeMs: number,
  fingerprint: string | null,
  deps: IngestDeps,
): Promise<void> {
  const { writer, registry, report, redactor } = deps;
  const result: WriteResult = { messagesAdded: 0, messagesUpdated: 0, blocksAdded: 0 };
  const stats = { malformed: 0, skipped: 0 };
  const keep = new Set<string>();
  const sessionsSeen = new Set<number>();
  // Streamed to bound memory: the full-text rows are written as the chunks arrive, not held for a batch.
  const final = await writer.withFileTransaction(
    async () => {
      const parsed = await adapter.streamFile!(ctx, (chunk) => {
        checkParsedFields(chunk);
        mergeParseStats(report, ctx.path, chunk, stats);
        applyParseOutput(writer, source.id, adapter.agent, chunk, 'replace', redactor, result, keep);
        for (const id of writer.touchedSessions) sessionsSeen.add(id);
      });
      report.bytesRead += size;
      // A parse that hit malformed content (a truncated tail) may be missing messages: keep the old ones.
      if (!parsed.notSession && stats.malformed === 0)
        result.messagesArchived = writer.archiveVanished(source.id, keep, parsed.partial ? sessionsSeen : undefined);
      writer.refreshTouchedSessions();
      registry.update(
        source.id,
        adapter.agent,
        wholeFileProgress(size, mtimeMs, keep.size, fingerprint, parsed, stats),
      );
      return parsed;
    },
    { inline: true },
  );
  countResult(report, result, final.notSession, ctx.path);
}
