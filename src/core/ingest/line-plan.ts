// Owns deciding, before any write, what each changed line source needs read (from which offset; a
// rewrite starts over at 0), so the ingest worker can read and parse files ahead of the writer.
import { fstatSync, statSync } from 'node:fs';
import type { SourceRow } from '../../store/session-writer.js';
import type { Env } from '../../shared/paths.js';
import { ADAPTERS } from '../../sources/registry.js';
import { prefixHash, withFd } from './line-reader.js';
import type { LineJob } from './line-job.js';
import { LinePipeline, workerAvailable } from './line-pipeline.js';
import type { SourceCandidate } from './resolve-inputs.js';

export interface LinePlan {
  size: number;
  mtimeMs: number;
  offset: number;
  lines: number;
  rewritten: boolean;
  /** Set when the worker reads this file. */
  job?: LineJob;
}

/** Below this many bytes to read, starting a worker thread costs more than it saves. */
const WORKER_MIN_BYTES = 8 * 1024 * 1024;

export function planLines(fd: number, row: SourceRow | undefined): LinePlan {
  return planFromStat(fstatSync(fd), row, (offset) => prefixHash(fd, offset));
}

/**
 * The plan from the file's size and modification time; `hashAt` (reading the file) is called only when
 * the store holds some of its lines, to tell an append from a rewrite.
 */
function planFromStat(stat: { size: number; mtimeMs: number }, row: SourceRow | undefined, hashAt: (offset: number) => string): LinePlan {
  const size = stat.size;
  let offset = row?.offset ?? 0;
  let lines = row?.lines ?? 0;
  const rewritten = offset > size || (offset > 0 && hashAt(offset) !== row?.prefix_hash);
  if (rewritten) {
    offset = 0;
    lines = 0;
  }
  return { size, mtimeMs: stat.mtimeMs, offset, lines, rewritten };
}

function unchanged(row: SourceRow | undefined, size: number, mtimeMs: number): boolean {
  return Boolean(row && row.size === size && row.mtime_ms === mtimeMs && row.status !== 'error' && row.status !== 'missing');
}

/**
 * Plans every changed line source of a built-in adapter and, when there is enough to read, starts the
 * worker with those jobs. `STRATA_INGEST_WORKER=0|1` forces it off or on, `STRATA_INGEST_PREFETCH=0|1`
 * the read-ahead thread's prefetching of files from a slow disk (tests, debugging).
 */
export function planLineJobs(
  files: SourceCandidate[],
  known: Map<string, SourceRow>,
  redact: boolean,
  env: Env,
): { plans: Map<string, LinePlan>; pipeline?: LinePipeline } {
  const plans = new Map<string, LinePlan>();
  const mode = env.STRATA_INGEST_WORKER;
  if (mode === '0' || !workerAvailable()) return { plans };
  const jobs: LineJob[] = [];
  let bytes = 0;
  for (const { adapter, path } of files) {
    if (adapter.format !== 'lines' || !ADAPTERS.includes(adapter)) continue;
    try {
      const row = known.get(path);
      // A stat, and no open unless the stored prefix must be checked: on a slow or network disk each
      // open is a round trip, and the writer made three per file.
      const stat = statSync(path);
      if (unchanged(row, stat.size, stat.mtimeMs)) continue;
      const plan = planFromStat(stat, row, (offset) => withFd(path, (fd) => prefixHash(fd, offset)));
      if (plan.size <= plan.offset) continue;
      plan.job = { id: jobs.length, path, agent: adapter.agent, offset: plan.offset, startLine: plan.lines, size: plan.size };
      jobs.push(plan.job);
      bytes += plan.size - plan.offset;
      plans.set(path, plan);
    } catch {
      // Unreadable now: the writer meets the same error and reports it for this file.
    }
  }
  if (jobs.length === 0 || (bytes < WORKER_MIN_BYTES && mode !== '1')) return { plans: new Map() };
  const prefetch = env.STRATA_INGEST_PREFETCH === '1' ? 'on' : env.STRATA_INGEST_PREFETCH === '0' ? 'off' : 'auto';
  return { plans, pipeline: new LinePipeline(jobs, redact, prefetch) };
}
