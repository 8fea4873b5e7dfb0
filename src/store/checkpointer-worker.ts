// Owns the checkpointer thread: its own connection to the store, a PASSIVE checkpoint every
// CHECKPOINT_EVERY_MS until told to stop. PASSIVE copies what it can without waiting for (or blocking)
// the writer or any reader.
import { createRequire } from 'node:module';
import { workerData } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { BEAT, CHECKPOINT_EVERY_MS, FRAMES, STOP } from './checkpointer-protocol.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
const { path, shared: buffer } = workerData as { path: string; shared: SharedArrayBuffer };
const shared = new Int32Array(buffer);
const started = performance.now();
const db = new Database(path, { fileMustExist: true });
try {
  while (Atomics.load(shared, STOP) === 0) {
    Atomics.wait(shared, STOP, 0, CHECKPOINT_EVERY_MS);
    try {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
      if (result) Atomics.store(shared, FRAMES, result.log);
    } catch {
      // Busy (the writer is finishing a checkpoint itself) or a transient I/O error: try again next time.
    }
    Atomics.store(shared, BEAT, Math.floor((performance.now() - started) / 1000));
  }
} finally {
  db.close();
}
