// Owns the read-ahead thread of a bulk ingest: reads the line jobs' bytes in order into the shared ring
// and tells the ingest worker where they are (see read-ahead.ts).
import { workerData, type MessagePort } from 'node:worker_threads';
import { AheadSender } from './ahead-channel.js';
import { READ_AHEAD_MESSAGES, readAheadJobs, type ReadJob } from './read-ahead.js';
import type { PrefetchMode } from './prefetch.js';

interface WorkerData {
  port: MessagePort;
  shared: SharedArrayBuffer;
  ring: SharedArrayBuffer;
  control: SharedArrayBuffer;
  jobs: ReadJob[];
  prefetch: PrefetchMode;
}
const { port, shared, ring, control, jobs, prefetch } = workerData as WorkerData;
await readAheadJobs(jobs, new AheadSender(port, shared, READ_AHEAD_MESSAGES), ring, control, prefetch);
