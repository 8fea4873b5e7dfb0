// Owns the one rule that decides, from a source's stored row and a fresh stat, whether it is skipped,
// appended to (read from the stored offset) or read again from its start (its stored prefix changed),
// and planning the changed line sources ahead, so the ingest threads can read them before the writer.
import { fstatSync, statSync } from 'node:fs';
import type { SourceRow } from '../../store/session-writer.js';
import { ADAPTERS } from '../../sources/registry.js';
import {
  mayThread,
  openLineBatches,
  prefixHash,
  withFd,
  type LineBatchSource,
  type LineJob,
  type PipelineOptions,
} from './pipeline/index.js';
import type { SourceCandidate } from './resolve-inputs.js';

export interface LinePlan {
  size: number;
  mtimeMs: number;
  offset: number;
  lines: number;
  rewritten: boolean;
  /** Set when the file was planned ahead for the threads. */
  job?: LineJob;
}

interface FileStat {
  size: number;
  mtimeMs: number;
}

/** Skipped after one stat: the stored row has the same size and time and no error, and the file is not missing. */
export function isUnchanged(row: SourceRow | undefined, stat: FileStat): boolean {
  return Boolean(
    row &&
      row.size === stat.size &&
      row.mtime_ms === stat.mtimeMs &&
      row.status !== 'error' &&
      row.status !== 'missing',
  );
}

/**
 * What to read of a changed line source: from the stored offset (an append), or from 0 when the file is
 * shorter or its prefix hash changed (a rewrite). `hashAt` reads the file, only when the store holds
 * some of its lines.
 */
function planRead(stat: FileStat, row: SourceRow | undefined, hashAt: (offset: number) => string): LinePlan {
  const stored = row?.offset ?? 0;
  const rewritten = stored > stat.size || (stored > 0 && hashAt(stored) !== row?.prefix_hash);
  const offset = rewritten ? 0 : stored;
  const lines = rewritten ? 0 : (row?.lines ?? 0);
  return { size: stat.size, mtimeMs: stat.mtimeMs, offset, lines, rewritten };
}

/** The plan of a file not planned ahead, from the descriptor the writer opened. */
export function planLines(fd: number, row: SourceRow | undefined): LinePlan {
  return planRead(fstatSync(fd), row, (offset) => prefixHash(fd, offset));
}

/**
 * The source of line batches for this ingest, and the plans of the files it reads ahead. Changed line
 * sources of built-in adapters are planned up front only when the options may make it threaded.
 */
export function planLineSources(
  files: SourceCandidate[],
  known: Map<string, SourceRow>,
  options: PipelineOptions,
): { plans: Map<string, LinePlan>; batches: LineBatchSource } {
  const plans = new Map<string, LinePlan>();
  const jobs: LineJob[] = [];
  let bytes = 0;
  for (const { adapter, path } of mayThread(options) ? files : []) {
    if (adapter.format !== 'lines' || !ADAPTERS.includes(adapter)) continue;
    try {
      const row = known.get(path);
      // A stat, and no open unless the stored prefix must be checked: on a slow or network disk each
      // open is a round trip, and the writer made three per file.
      const stat = statSync(path);
      if (isUnchanged(row, stat)) continue;
      const plan = planRead(stat, row, (offset) => withFd(path, (fd) => prefixHash(fd, offset)));
      if (plan.size <= plan.offset) continue;
      plan.job = {
        id: jobs.length,
        path,
        agent: adapter.agent,
        offset: plan.offset,
        startLine: plan.lines,
        size: plan.size,
      };
      jobs.push(plan.job);
      bytes += plan.size - plan.offset;
      plans.set(path, plan);
    } catch {
      // Unreadable now: the writer meets the same error and reports it for this file.
    }
  }
  const batches = openLineBatches(jobs, bytes, options);
  return { plans: batches.threaded ? plans : new Map(), batches };
}
