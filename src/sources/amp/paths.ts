// Owns where Amp keeps its threads: one JSON document per thread, `<data dir>/amp/threads/T-<uuid>.json`, the
// data dir being `$XDG_DATA_HOME`, else `~/.local/share`. Beside `threads/`: `history.jsonl` (typed prompts
// only), `session.json` and `secrets.json` (credentials, never read).
import { basename, dirname, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

const THREAD_FILE = /^T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/i;

export function ampDefaultRoots(env: Env): string[] {
  return [join(env.XDG_DATA_HOME || join(homeDir(env), '.local', 'share'), 'amp', 'threads')];
}

export function isAmpThreadName(path: string): boolean {
  return THREAD_FILE.test(basename(path));
}

export function discoverAmpThreads(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, { onSkippedMatch: onSkipped, maxDepth: 1, match: (name) => THREAD_FILE.test(name) });
}

/** The thread's own id at the top of the document (pretty-printed or not), within the first bytes. */
const HEAD = /^\s*\{[\s\S]*"id"\s*:\s*"T-[0-9a-f]{8}-/i;

export function detectAmpThread(path: string, head: string): boolean {
  return path.endsWith('.json') && HEAD.test(head.replace(/^\uFEFF/, ''));
}

export function explainAmpFile(path: string): string | undefined {
  if (basename(dirname(path)) !== 'amp') return undefined;
  const name = basename(path);
  if (name === 'history.jsonl') return 'Amp prompt history (typed prompts, no replies): threads are read from threads/';
  if (name === 'session.json' || name === 'secrets.json') return 'Amp client state, not a thread (never read)';
  return undefined;
}
