// Owns off-thread extractive summaries: one worker thread with a capped heap runs summarizeSegment, so
// a long run's garbage never grows the caller's heap. The worker holds the process open only while an
// answer is pending; when it cannot start (sources run untranspiled) or dies, the caller's thread answers.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SegmentSummary } from '../task-schemas.js';
import { summarizeSegment } from './summarize.js';

/** Heap caps of the worker: a 50,000-token segment needs well under this; past it, the caller answers. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };
const WORKER_FILE = fileURLToPath(new URL('./summary-worker.js', import.meta.url));

interface Pending {
  content: string;
  resolve: (summary: SegmentSummary) => void;
  reject: (error: Error) => void;
}

let worker: Worker | null = null;
let available: boolean | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function startWorker(): Worker | null {
  available ??= existsSync(WORKER_FILE);
  if (!available) return null;
  // --input-type (node -e) is refused for a worker's file entry point; other flags are kept.
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
  const started = new Worker(WORKER_FILE, { resourceLimits: WORKER_LIMITS, execArgv });
  started.unref();
  started.on('message', (reply: { id: number; summary?: SegmentSummary; error?: string }) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
    if (reply.summary) waiting.resolve(reply.summary);
    else waiting.reject(new Error(reply.error ?? 'extractive worker: no answer'));
  });
  const fail = (): void => {
    if (worker === started) worker = null;
    // Answers still owed are computed here: the summarizer is deterministic, so nothing differs.
    const owed = [...pending.values()];
    pending.clear();
    for (const item of owed) answerHere(item);
  };
  started.on('error', fail);
  started.on('exit', fail);
  return started;
}

function answerHere(item: Pending): void {
  try {
    item.resolve(summarizeSegment(item.content));
  } catch (error) {
    item.reject(error as Error);
  }
}

/** summarizeSegment on the worker thread; on the caller's thread when no worker can run. */
export function summarizeSegmentOffThread(content: string): Promise<SegmentSummary> {
  worker ??= startWorker();
  return new Promise((resolve, reject) => {
    const item = { content, resolve, reject };
    if (!worker) return answerHere(item);
    const id = nextId++;
    pending.set(id, item);
    worker.ref();
    worker.postMessage({ id, content });
  });
}
