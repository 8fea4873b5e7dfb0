// Owns the main-thread side of the ingest worker: starts it, hands it every line job up front, and
// delivers each job's events synchronously (receiveMessageOnPort + Atomics.wait), so a source file is
// still written in one synchronous SQLite transaction while the worker parses the next files.
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { StrataError } from '../../shared/errors.js';
import { workerFileExists } from '../../shared/worker-file.js';
import type { LineJob, LineJobEvent } from './line-job.js';
import { CONSUMED, PRODUCED, STARTED, eventWeight } from './line-pipeline-protocol.js';

const WORKER_URL = new URL('./line-worker.js', import.meta.url);
/** No event for this long means the worker died (it posts at least every batch of a few MB). */
const STALL_MS = 120_000;
/** A worker that has not started running its module by then never will (load failure). */
const START_MS = 20_000;

/** The worker cannot deliver (failed to start, died): the caller reads the file itself instead. */
export class PipelineUnavailable extends StrataError {
  constructor(reason: string) {
    super('IO', `ingest worker thread unavailable: ${reason}`);
  }
}

/** False when running from TypeScript sources (tests): there is no compiled worker file to start. */
export function workerAvailable(): boolean {
  return workerFileExists(WORKER_URL);
}

export class LinePipeline {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly counters: Int32Array;
  private readonly created = Date.now();
  /** Set once the worker is known to be gone: every later job is read inline. */
  private dead: string | undefined;

  constructor(jobs: LineJob[], redact: boolean) {
    const shared = new SharedArrayBuffer(12);
    this.counters = new Int32Array(shared);
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    // A bounded young generation: the worker's garbage is short-lived batches, and RSS must stay bounded.
    // 32 MB rather than 8: fewer scavenges cut the worker's CPU by ~10% for ~10 MB more RSS.
    this.worker = new Worker(WORKER_URL, { workerData: { port: port2, shared, redact }, transferList: [port2], resourceLimits: { maxYoungGenerationSizeMb: 32 } });
    this.worker.unref();
    this.worker.on('error', (error) => {
      this.dead = error.message;
    });
    this.port.postMessage(jobs);
  }

  get usable(): boolean {
    return this.dead === undefined;
  }

  private receive(): LineJobEvent {
    const started = Date.now();
    for (;;) {
      if (this.dead !== undefined) throw new PipelineUnavailable(this.dead);
      const produced = Atomics.load(this.counters, PRODUCED);
      const message = receiveMessageOnPort(this.port);
      if (message) {
        const event = message.message as LineJobEvent;
        Atomics.add(this.counters, CONSUMED, eventWeight(event));
        Atomics.notify(this.counters, CONSUMED);
        return event;
      }
      const now = Date.now();
      if (Atomics.load(this.counters, STARTED) === 0 && now - this.created > START_MS) this.dead = 'it did not start';
      else if (now - started > STALL_MS) this.dead = 'it stopped responding';
      Atomics.wait(this.counters, PRODUCED, produced, 1000);
    }
  }

  /**
   * Delivers the events of job `id` to `onEvent` until its end (returned) or error (thrown). Events of
   * earlier jobs nobody consumed are dropped. If `onEvent` throws, the rest of the job is drained first.
   */
  consume(id: number, onEvent: (event: Extract<LineJobEvent, { type: 'batch' }>) => void): Extract<LineJobEvent, { type: 'end' | 'error' }> {
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
    await this.worker.terminate();
  }
}
