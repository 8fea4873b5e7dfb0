// Owns the heap growth bound of a history-index run. V8 lets the old generation grow to several times
// what is live before collecting it; a run over 100,000 prompts keeps ~100 MB live and would peak past
// 1 GB. The bound holds for the run only and is lifted afterwards.
import { setFlagsFromString } from 'node:v8';

/** Growth allowed over the live heap before a full collection, in percent (V8's own default is 0 = adaptive). */
const RUN_HEAP_GROWING_PERCENT = 10;
let active = 0;

export async function withBoundedHeapGrowth<T>(run: () => Promise<T>): Promise<T> {
  if (active++ === 0) setFlagsFromString(`--heap-growing-percent=${RUN_HEAP_GROWING_PERCENT}`);
  try {
    return await run();
  } finally {
    if (--active === 0) setFlagsFromString('--heap-growing-percent=0');
  }
}
