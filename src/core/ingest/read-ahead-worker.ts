// Owns the read-ahead thread of a bulk ingest: reads the line jobs' bytes in order into the shared ring
// and tells the ingest worker where they are (see read-ahead.ts).
import { workerData, type MessagePort } from 'node:worker_threads';
import { AheadSender } from './ahead-channel.js';
import { READ_AHEAD_MESSAGES, readAheadJobs, type ReadJob } from './read-ahead.js';

interface WorkerData {
  port: MessagePort;
  shared: SharedArrayBuffer;
  ring: SharedArrayBuffer;
  control: SharedArrayBuffer;
  jobs: ReadJob[];
}
const { port, shared, ring, control, jobs } = workerData as WorkerData;
readAheadJobs(jobs, new AheadSender(port, shared, READ_AHEAD_MESSAGES), ring, control);
