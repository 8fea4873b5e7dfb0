// Owns the constants shared by the ingest worker and its main-thread reader: the shared counter slots
// and how far the worker may run ahead of the writes.

/** Int32 slot counting the worker's posted events, weighted by `eventWeight`. */
export const PRODUCED = 0;
/** Int32 slot counting the consumed events, weighted the same way. */
export const CONSUMED = 1;
/** Int32 slot the worker sets to 1 once its module runs. */
export const STARTED = 2;
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
