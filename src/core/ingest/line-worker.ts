// Owns the ingest worker thread: runs line jobs (read, parse, redact, prepare) one after another and
// posts their events to the main thread, which only writes to SQLite. At most MAX_AHEAD events wait
// unconsumed (shared counters + Atomics), which bounds memory whatever the corpus size.
import { workerData, type MessagePort } from 'node:worker_threads';
import { ADAPTERS } from '../../sources/registry.js';
import type { LineAdapter } from '../../sources/types.js';
import { runLineJob, type LineJob, type LineJobEvent } from './line-job.js';
import { packTexts } from './text-pack.js';
import { MAX_AHEAD_KIB, PRODUCED, CONSUMED, STARTED, eventWeight } from './line-pipeline-protocol.js';

const { port, shared, redact } = workerData as { port: MessagePort; shared: SharedArrayBuffer; redact: boolean };
const counters = new Int32Array(shared);
Atomics.store(counters, STARTED, 1);
Atomics.notify(counters, PRODUCED);

function post(event: LineJobEvent): void {
  for (;;) {
    const consumed = Atomics.load(counters, CONSUMED);
    if (Atomics.load(counters, PRODUCED) - consumed < MAX_AHEAD_KIB) break;
    Atomics.wait(counters, CONSUMED, consumed, 1000);
  }
  // A batch's texts cross as UTF-8 bytes in a transferred buffer, not as strings (see text-pack.ts).
  if (event.type === 'batch') port.postMessage(event, [packTexts(event.output)]);
  else port.postMessage(event);
  Atomics.add(counters, PRODUCED, eventWeight(event));
  Atomics.notify(counters, PRODUCED);
}

function adapterFor(agent: string): LineAdapter | undefined {
  return ADAPTERS.find((a): a is LineAdapter => a.agent === agent && a.format === 'lines');
}

port.on('message', (jobs: LineJob[]) => {
  for (const job of jobs) {
    try {
      const adapter = adapterFor(job.agent);
      if (!adapter) throw new Error(`no line adapter for ${job.agent}`);
      runLineJob(adapter, job, redact, post, true);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      post({ type: 'error', job: job.id, message: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) });
    }
  }
});
