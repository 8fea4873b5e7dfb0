// Owns a memory-over-speed mode for bounded-memory streaming jobs. V8 otherwise lets its heap grow with
// garbage far past the live data (a 200 MB Puffin history: 283 MB peak RSS, 144 MB in this mode, for
// ~25% more time). Scoped: switched on for the job, and back off afterwards.
import { setFlagsFromString } from 'node:v8';

/** Files at least this large get the low-memory mode when they are streamed. */
export const LOW_MEMORY_MIN_BYTES = 50 * 1024 * 1024;

export async function withLowMemoryMode<T>(job: () => Promise<T>): Promise<T> {
  setFlagsFromString('--optimize-for-size');
  try {
    return await job();
  } finally {
    setFlagsFromString('--no-optimize-for-size');
  }
}
