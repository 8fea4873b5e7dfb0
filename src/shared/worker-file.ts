// Owns telling whether a worker thread's compiled module is there: workers run from dist/, so code run
// from TypeScript sources (tests) finds none and does the work on its own thread instead.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function workerFileExists(url: URL): boolean {
  return url.protocol === 'file:' && existsSync(fileURLToPath(url));
}
