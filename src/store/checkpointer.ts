// Owns moving WAL checkpoints off the writing thread during a bulk write. A checkpoint copies the WAL
// into the database file and waits for two fsyncs; on the writer's thread that stalled every ~64 MB.
// Here a small worker thread with its own connection runs PASSIVE checkpoints every 500 ms (they never
// block the writer), and the writer only finishes one, between its transactions, when the WAL has
// grown past RESET_FRAMES: what is left to copy is then small, and its next transaction restarts the
// WAL from the beginning instead of letting it grow for the whole ingest.
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { workerFile } from '../shared/worker-file.js';
import { BEAT, FRAMES, STOP, CHECKPOINT_EVERY_MS } from './checkpointer-protocol.js';

const WORKER_URL = new URL('./checkpointer-worker.js', import.meta.url);
/** WAL frames (4 KiB pages) after which the writer finishes a checkpoint itself: 256 MB of WAL. */
const RESET_FRAMES = 65_536;
/** A checkpointer whose beat is older than this is gone (failed to start, died). */
const STALE_MS = 10_000;

export interface Checkpointing {
  /** Call between transactions: finishes a checkpoint when the WAL is long, or falls back if the thread is gone. */
  betweenTransactions(): void;
  /** WAL frames at the thread's last checkpoint (0 after the writer finished one). */
  walFrames(): number;
  /** Stops the thread (after its current checkpoint). The caller restores its own checkpoint settings. */
  stop(): Promise<void>;
}

/**
 * Starts background checkpointing of the store at `path` and turns the writer's own automatic
 * checkpoints off. Undefined when there is no compiled worker to start (see shared/worker-file.ts):
 * the writer then keeps checkpointing itself. If the thread stops beating, `fallbackPages` is set as
 * the writer's automatic checkpoint interval again.
 */
export function startCheckpointer(
  db: Database,
  path: string,
  fallbackPages: number,
  resetFrames = RESET_FRAMES,
): Checkpointing | undefined {
  const file = workerFile(WORKER_URL);
  if (!file) return undefined;
  const shared = new Int32Array(new SharedArrayBuffer(12));
  const worker = new Worker(file, {
    workerData: { path, shared: shared.buffer },
    // Its heap holds nothing but a connection: keep the thread's memory small.
    resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 },
  });
  worker.unref();
  worker.on('error', () => Atomics.store(shared, BEAT, -1));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  db.pragma('wal_autocheckpoint = 0');
  // A monotonic clock: a wall-clock jump must not look like a dead thread.
  const started = performance.now();
  let fallenBack = false;
  return {
    betweenTransactions() {
      if (fallenBack) return;
      const beat = Atomics.load(shared, BEAT);
      // The beat counts seconds since start (see the worker); 0 until its first checkpoint.
      const sinceBeatMs = performance.now() - started - Math.max(0, beat) * 1000;
      if (beat < 0 || sinceBeatMs > STALE_MS + CHECKPOINT_EVERY_MS) {
        fallenBack = true;
        db.pragma(`wal_autocheckpoint = ${fallbackPages}`);
        return;
      }
      if (Atomics.load(shared, FRAMES) < resetFrames) return;
      const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      if (result && result.busy === 0) Atomics.store(shared, FRAMES, 0);
    },
    walFrames() {
      return Atomics.load(shared, FRAMES);
    },
    async stop() {
      Atomics.store(shared, STOP, 1);
      Atomics.notify(shared, STOP);
      const timeout = setTimeout(() => void worker.terminate(), 30_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
