// Owns ingesting one changed line source (JSONL): the complete lines appended since the stored offset (or
// all of them after a rewrite) come as prepared batches from the line batch source (inline or threaded)
// and are written with the new offset, line count and prefix hash in one transaction.
import type { Store } from '../../store/db.js';
import { INLINE_FTS_BYTES, type SessionWriter, type SourceRow, type WriteResult } from '../../store/session-writer.js';
import type { SourceProgress, SourceRegistry } from '../../store/source-registry.js';
import type { SourceAdapter } from '../../sources/types.js';
import type { Redactor } from './redact.js';
import { applyPreparedOutput } from './apply.js';
import { withoutProvenCopies } from './fork-copies.js';
import { storedBlockTexts } from '../../store/stored-texts.js';
import { withFd, type LineBatch, type LineBatchSource } from './pipeline/index.js';
import { planLines, type LinePlan } from './line-plan.js';
import { countResult, mergeParseStats, type IngestReport } from './report.js';
import { emptyCallStats, mergeCallStats, type CallStats } from '../../shared/tool-calls/call-stats.js';

export interface IngestDeps {
  registry: SourceRegistry;
  writer: SessionWriter;
  redactor: Redactor;
  store: Store;
  report: IngestReport;
  /** Line sources planned ahead for the threads (empty when `batches` is inline). */
  plans: Map<string, LinePlan>;
  batches: LineBatchSource;
  /** Redactions in stored line batches (counted per batch, see pipeline/line-job.ts). */
  lineRedactions: { count: number; byKind: Record<string, number> };
}

/**
 * Ingests the new lines of `path`; `row` is its stored source row, if any. A new source's row is inserted
 * in the file's own transaction: one commit per new file, not two.
 */
export function ingestLines(
  adapter: Extract<SourceAdapter, { format: 'lines' }>,
  path: string,
  row: SourceRow | undefined,
  deps: IngestDeps,
): void {
  const { writer, registry, report, lineRedactions } = deps;
  const planned = deps.plans.get(path);
  deps.plans.delete(path);
  // The file was planned ahead (its head read for the prefix hash): no need to open it here.
  const plan = planned ?? withFd(path, (fd) => planLines(fd, row));
  const { size, mtimeMs, rewritten } = plan;
  const result: WriteResult = { messagesAdded: 0, messagesUpdated: 0, blocksAdded: 0 };
  const stats = { malformed: 0, skipped: 0 };
  let notSession: string | undefined;
  let sourceId = row?.id ?? -1;
  const fileCalls = new Map<number, CallStats>();
  // A rewritten file is read again from its start: what it no longer has is archived, never deleted.
  const seen = rewritten ? new Set<string>() : undefined;
  const onBatch = (event: LineBatch): void => {
    report.bytesRead += event.bytes;
    const output = withoutProvenCopies(event.output, (key) => storedBlockTexts(deps.store.db, adapter.agent, key));
    if (output.notSession) notSession = output.notSession;
    mergeParseStats(report, path, output, stats);
    if (notSession) return;
    const sessionIds = applyPreparedOutput(writer, sourceId, adapter.agent, output, result, seen);
    for (const [key, calls] of output.callStats) {
      const id = sessionIds.get(key);
      if (id === undefined) continue;
      let total = fileCalls.get(id);
      if (!total) fileCalls.set(id, (total = emptyCallStats()));
      mergeCallStats(total, calls);
    }
    lineRedactions.count += event.redactions;
    for (const [kind, n] of Object.entries(event.redactionsByKind))
      lineRedactions.byKind[kind] = (lineRedactions.byKind[kind] ?? 0) + n;
    for (const entry of event.redactionsWhere) report.redactionsWhere.push(entry);
  };
  writer.withFileTransaction(
    () => {
      if (!row) sourceId = registry.insert(path, adapter.agent).id;
      if (rewritten) writer.beginRewrite();
      const job = plan.job ?? { id: -1, path, agent: adapter.agent, offset: plan.offset, startLine: plan.lines, size };
      const end = deps.batches.read(adapter, job, onBatch);
      if (seen && !notSession) {
        result.messagesUpdated += writer.finishRewrite(sourceId);
        result.messagesArchived = writer.archiveVanished(sourceId, seen);
      }
      // Sessions this file wrote whole: their calls were all counted by the batches above.
      writer.refreshTouchedSessions(fileCalls);
      const progress: SourceProgress = {
        size,
        mtimeMs,
        offset: end.endOffset,
        lines: end.endLine,
        prefixHash: end.prefixHash,
        fingerprint: null,
        state: null,
        status: notSession ? 'not_session' : 'active',
        statusReason: notSession ?? null,
        malformed: stats.malformed,
        skipped: stats.skipped,
      };
      registry.update(sourceId, adapter.agent, progress);
    },
    { inline: size - plan.offset >= INLINE_FTS_BYTES },
  );
  countResult(report, result, notSession, path);
  if (rewritten) report.filesRewritten++;
}
