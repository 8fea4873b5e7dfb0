// Owns the threaded source of prepared line batches: starts the ingest worker and its read-ahead thread,
// hands them every line job up front, and delivers each job's events synchronously (see ahead-channel.ts),
// so a source file is still written in one synchronous SQLite transaction while the worker parses the next.
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { StrataError } from '../../../shared/errors.js';
import { workerFile } from '../../../shared/worker-file.js';
import { AheadReceiver, ChannelDown, channelCounters } from './ahead-channel.js';
import type { LineJob, LineJobEvent } from './line-job.js';
import { eventWeight } from './protocol.js';
import { ringMemory } from './read-ahead.js';
import type { PrefetchMode } from './prefetch.js';

const WORKER_URL = new URL('./line-worker.js', import.meta.url);
const READER_URL = new URL('./read-ahead-worker.js', import.meta.url);
/** No event for this long means the worker died (it posts at least every batch of a few MB). */
const STALL_MS = 120_000;
/** A worker that has not started running its module by then never will (load failure). */
const START_MS = 20_000;

/** The worker cannot deliver (failed to start, died): the caller reads the file itself instead. */
export class PipelineUnavailable extends StrataError {
  constructor(reason: string) {
    super('IO', `ingest threads unavailable: ${reason}`);
  }
}

/** False when there is no compiled worker file to start (TypeScript sources without a build). */
export function threadsAvailable(): boolean {
  return workerFile(WORKER_URL) !== undefined && workerFile(READER_URL) !== undefined;
}

export class LinePipeline {
  private readonly worker: Worker;
  private readonly reader: Worker;
  private readonly port: MessagePort;
  private readonly events: AheadReceiver<LineJobEvent>;
  /** Set once the worker is known to be gone: every later job is read inline. */
  private dead: string | undefined;

  constructor(jobs: LineJob[], redact: boolean, prefetch: PrefetchMode = 'auto') {
    const shared = channelCounters();
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.events = new AheadReceiver<LineJobEvent>(port1, shared, eventWeight, { startMs: START_MS, stallMs: STALL_MS });
    const read = new MessageChannel();
    const readShared = channelCounters();
    const { ring, control } = ringMemory();
    // Its heap holds the job list (no old-generation limit: 80,000 jobs passed 16 MB) and little garbage,
    // as the bytes go through the shared ring.
    this.reader = new Worker(workerFile(READER_URL)!, {
      workerData: { port: read.port1, shared: readShared, ring, control, jobs, prefetch },
      transferList: [read.port1],
      resourceLimits: { maxYoungGenerationSizeMb: 2 },
    });
    // A bounded young generation: the worker's garbage is short-lived batches, and RSS must stay bounded.
    // 32 MB rather than 8: fewer scavenges cut the worker's CPU by ~10% for ~10 MB more RSS.
    this.worker = new Worker(workerFile(WORKER_URL)!, {
      workerData: { port: port2, shared, redact, reader: { port: read.port2, shared: readShared, ring, control } },
      transferList: [port2, read.port2],
      resourceLimits: { maxYoungGenerationSizeMb: 32 },
    });
    for (const [thread, name] of [
      [this.worker, 'ingest worker'],
      [this.reader, 'read-ahead thread'],
    ] as const) {
      thread.unref();
      thread.on('error', (error) => {
        this.dead = `${name}: ${error.message}`;
      });
    }
    this.port.postMessage(jobs);
  }

  get usable(): boolean {
    return this.dead === undefined;
  }

  private receive(): LineJobEvent {
    try {
      return this.events.receive(() => this.dead);
    } catch (error) {
      if (!(error instanceof ChannelDown)) throw error;
      this.dead ??= `ingest worker: ${error.message}`;
      throw new PipelineUnavailable(this.dead);
    }
  }

  /**
   * Delivers the events of job `id` to `onEvent` until its end (returned) or error (thrown). Events of
   * earlier jobs nobody consumed are dropped. If `onEvent` throws, the rest of the job is drained first.
   */
  consume(
    id: number,
    onEvent: (event: Extract<LineJobEvent, { type: 'batch' }>) => void,
  ): Extract<LineJobEvent, { type: 'end' | 'error' }> {
    let failure: unknown;
    let failed = false;
    for (;;) {
      const event = this.receive();
      if (event.job < id) continue;
      if (event.job > id) throw new StrataError('IO', `ingest worker: job ${event.job} arrived before job ${id} ended`);
      if (event.type !== 'batch') {
        if (failed) throw failure;
        return event;
      }
      if (failed) continue;
      try {
        onEvent(event);
      } catch (error) {
        failed = true;
        failure = error;
      }
    }
  }

  async close(): Promise<void> {
    this.port.close();
    await Promise.all([this.worker.terminate(), this.reader.terminate()]);
  }
}
