// Owns finding a worker thread's compiled module. Workers run compiled JavaScript: code run from the
// TypeScript sources (tests under vitest) starts the module of the same path under dist/, which
// `npm run build` writes; without a build there is none, and the work stays on the calling thread.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The module to start for `url` (a `.js` beside the calling module), or undefined when there is none. */
export function workerFile(url: URL): URL | undefined {
  if (url.protocol !== 'file:') return undefined;
  const path = fileURLToPath(url);
  if (existsSync(path)) return url;
  const src = path.lastIndexOf('/src/');
  if (src < 0) return undefined;
  const built = `${path.slice(0, src)}/dist/${path.slice(src + '/src/'.length)}`;
  return existsSync(built) ? pathToFileURL(built) : undefined;
}
