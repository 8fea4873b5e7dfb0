// Owns the ingest worker thread: runs line jobs (parse, redact, prepare the bytes the read-ahead thread
// sends) one after another and posts their events to the main thread, which only writes to SQLite. At
// most MAX_AHEAD_KIB of events wait unconsumed, which bounds memory whatever the corpus size.
import { workerData, type MessagePort } from 'node:worker_threads';
import { ADAPTERS } from '../../../sources/registry.js';
import type { LineAdapter } from '../../../sources/types.js';
import { AheadReceiver, AheadSender, ChannelDown } from './ahead-channel.js';
import { errorFields, runLineJob, type LineJob, type LineJobEvent } from './line-job.js';
import { MAX_AHEAD_KIB, READER_TIMEOUTS, eventWeight } from './protocol.js';
import { ReadAheadInbox, type ReadAheadMessage } from './read-ahead.js';
import { packTexts } from './text-pack.js';

interface WorkerData {
  port: MessagePort;
  shared: SharedArrayBuffer;
  redact: boolean;
  reader: { port: MessagePort; shared: SharedArrayBuffer; ring: SharedArrayBuffer; control: SharedArrayBuffer };
}
const { port, shared, redact, reader: readerEnd } = workerData as WorkerData;
const sender = new AheadSender(port, shared, MAX_AHEAD_KIB);
const inbox = new ReadAheadInbox(
  new AheadReceiver<ReadAheadMessage>(readerEnd.port, readerEnd.shared, () => 1, READER_TIMEOUTS),
  readerEnd.ring,
  readerEnd.control,
);
/** Set when the read-ahead thread failed: this thread then reads the files itself. */
let readerDown = false;

function post(event: LineJobEvent): void {
  // A batch's texts cross as UTF-8 bytes in a transferred buffer, not as strings (see text-pack.ts).
  if (event.type === 'batch') sender.send(event, eventWeight(event), [packTexts(event.output)]);
  else sender.send(event, eventWeight(event));
}

function adapterFor(agent: string): LineAdapter | undefined {
  return ADAPTERS.find((a): a is LineAdapter => a.agent === agent && a.format === 'lines');
}

function runJob(adapter: LineAdapter, job: LineJob): void {
  if (!readerDown) {
    const bytes = inbox.chunks(job.id);
    try {
      runLineJob(adapter, job, redact, post, true, bytes);
      return;
    } catch (error) {
      if (!(error instanceof ChannelDown)) throw error;
      readerDown = true;
      // Bytes of this job were parsed already: it fails (and is read again by the next ingest).
      if (bytes.received()) throw new Error(`read-ahead thread: ${error.message}`);
    }
  }
  runLineJob(adapter, job, redact, post, true);
}

port.on('message', (jobs: LineJob[]) => {
  for (const job of jobs) {
    try {
      const adapter = adapterFor(job.agent);
      if (!adapter) throw new Error(`no line adapter for ${job.agent}`);
      runJob(adapter, job);
    } catch (error) {
      post({ type: 'error', job: job.id, ...errorFields(error) });
    }
  }
});
