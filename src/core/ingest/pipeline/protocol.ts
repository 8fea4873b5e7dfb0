// Owns the constants shared by the ingest worker and its main-thread consumer: how far the worker may
// run ahead of the writes, and how long the worker waits for the read-ahead thread that feeds it.
import type { ReceiverTimeouts } from './ahead-channel.js';

/**
 * How far (in KiB of source lines) the worker may run ahead of the writes: bounds the memory held. A
 * batch (up to 8 MB, as inline, so batch boundaries fall at the same lines) is always let through.
 * 16 MB rather than 4: the writer works in bursts (a full-text batch, a large file), and with 4 MB the
 * two threads took turns waiting on each other for a fifth of a bulk ingest (+5-10% MB/s on 1 GB for
 * ~10 MB more peak RSS; 32 MB gained no more and passed 290 MB).
 */
export const MAX_AHEAD_KIB = 16 * 1024;

/**
 * What a batch holds in memory beyond its source lines (objects, its packed-text buffer, the message),
 * in KiB: without it, a run of tiny files let thousands of batches wait at once.
 */
const BATCH_OVERHEAD_KIB = 8;

/**
 * Weight of an event in the shared counters: KiB of lines plus BATCH_OVERHEAD_KIB for batches (so 2^31
 * KiB = 2 TiB), 1 otherwise.
 */
export function eventWeight(event: { type: string; bytes?: number }): number {
  return event.type === 'batch' ? BATCH_OVERHEAD_KIB + Math.ceil((event.bytes ?? 0) / 1024) : 1;
}

/**
 * How long the ingest worker waits for the read-ahead thread before it reads the files itself: it has
 * started after 20 s or never will, and it stalls for less long than the main thread waits for the
 * worker (120 s), so that the worker's own reading is what takes over.
 */
export const READER_TIMEOUTS: ReceiverTimeouts = { startMs: 20_000, stallMs: 60_000 };
