// Owns the worker side of off-thread extractive summaries: each message { id, content } is answered with
// { id, summary } or { id, error }. The summarizer's garbage stays in this thread's capped heap.
import { parentPort } from 'node:worker_threads';
import { summarizeSegment } from './summarize.js';

parentPort?.on('message', (message: { id: number; content: string }) => {
  try {
    parentPort!.postMessage({ id: message.id, summary: summarizeSegment(message.content) });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: (error as Error).message });
  }
});
