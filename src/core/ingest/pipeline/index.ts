// Owns the one seam between the ingest engine and the reading of line sources: a source of prepared line
// batches (read, parsed, redacted, prepared for the store), inline on the writer's thread or threaded
// (a worker parses and a read-ahead thread reads the planned files ahead of the writes). Both give the
// same batches; which one runs is chosen by the caller's options, never by the environment.
import type { LineAdapter } from '../../../sources/types.js';
import { jobError, runLineJob, type LineJob, type LineJobEvent } from './line-job.js';
import { LinePipeline, PipelineUnavailable, threadsAvailable } from './threaded.js';
import type { PrefetchMode } from './prefetch.js';

export { BINARY_FILE, NUL_CHECK_BYTES, looksBinary, type LineJob } from './line-job.js';
export { prefixHash, withFd } from './line-reader.js';
export type { PrefetchMode } from './prefetch.js';

export type LineBatch = Extract<LineJobEvent, { type: 'batch' }>;
export type LineJobEnd = Extract<LineJobEvent, { type: 'end' }>;

/** `auto`: threaded once the planned reads reach THREADED_MIN_BYTES; `inline`, `threaded`: always. */
export type PipelineMode = 'auto' | 'inline' | 'threaded';

export interface PipelineOptions {
  mode: PipelineMode;
  /** Prefetching of files from a slow disk by the read-ahead thread (see prefetch.ts). */
  prefetch: PrefetchMode;
  redact: boolean;
}

export interface LineBatchSource {
  /** Threads prepare the batches: a bulk ingest (the caller checkpoints and merges for one). */
  readonly threaded: boolean;
  /**
   * Delivers the prepared batches of `job` to `onBatch`, in order, and returns where its complete lines
   * end; throws what reading it threw. A job of id < 0 (not planned ahead) is read inline.
   */
  read(adapter: LineAdapter, job: LineJob, onBatch: (batch: LineBatch) => void): LineJobEnd;
  close(): Promise<void>;
}

/** Below this many bytes to read, starting the threads costs more than it saves. */
const THREADED_MIN_BYTES = 8 * 1024 * 1024;

/** Whether `options` may make a threaded source: only then are line jobs worth planning ahead. */
export function mayThread(options: PipelineOptions): boolean {
  return options.mode !== 'inline' && threadsAvailable();
}

/**
 * The source for `jobs` (planned ahead, `bytes` to read in all): threaded when the options and the size call for it.
 */
export function openLineBatches(jobs: LineJob[], bytes: number, options: PipelineOptions): LineBatchSource {
  const threaded =
    mayThread(options) && jobs.length > 0 && (options.mode === 'threaded' || bytes >= THREADED_MIN_BYTES);
  return threaded
    ? new ThreadedBatches(new LinePipeline(jobs, options.redact, options.prefetch), options.redact)
    : new InlineBatches(options.redact);
}

class InlineBatches implements LineBatchSource {
  readonly threaded = false;

  constructor(private readonly redact: boolean) {}

  read(adapter: LineAdapter, job: LineJob, onBatch: (batch: LineBatch) => void): LineJobEnd {
    let end: LineJobEnd | undefined;
    runLineJob(adapter, job, this.redact, (event) => {
      if (event.type === 'batch') onBatch(event);
      else if (event.type === 'end') end = event;
    });
    if (!end) throw new Error('line read ended without a result');
    return end;
  }

  async close(): Promise<void> {}
}

class ThreadedBatches implements LineBatchSource {
  readonly threaded = true;
  private readonly inline: InlineBatches;

  constructor(
    private readonly pipeline: LinePipeline,
    redact: boolean,
  ) {
    this.inline = new InlineBatches(redact);
  }

  /** A job the threads became unavailable for before delivering any of it is read inline instead. */
  read(adapter: LineAdapter, job: LineJob, onBatch: (batch: LineBatch) => void): LineJobEnd {
    if (job.id < 0 || !this.pipeline.usable) return this.inline.read(adapter, job, onBatch);
    let delivered = false;
    try {
      const last = this.pipeline.consume(job.id, (event) => {
        delivered = true;
        onBatch(event);
      });
      if (last.type === 'error') throw jobError(last);
      return last;
    } catch (error) {
      if (error instanceof PipelineUnavailable && !delivered) return this.inline.read(adapter, job, onBatch);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.pipeline.close();
  }
}
