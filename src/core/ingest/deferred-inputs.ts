// Owns adding the work of the deferred-ingest queue (deferred.ts) to a run's inputs; apart from the queue
// itself so that a hook can record work without loading the input resolver and its adapters.
import { existsSync } from 'node:fs';
import type { Env } from '../../shared/paths.js';
import type { SourceAdapter } from '../../sources/types.js';
import type { DeferredEntry } from './deferred.js';
import { resolveInputs, type ResolvedInputs } from './resolve-inputs.js';

/**
 * Adds the files the deferred entries name to a run's inputs (a file already there stays once). Entries
 * whose files are gone have nothing left to do; an entry that cannot be resolved stays for a later run.
 */
export async function addDeferredInputs(
  inputs: ResolvedInputs,
  entries: DeferredEntry[],
  adapters: SourceAdapter[],
  env: Env,
  cwd: string,
  known: Parameters<typeof resolveInputs>[4],
): Promise<string[]> {
  const done: string[] = [];
  const present = new Set(inputs.files.map((f) => f.path));
  for (const entry of entries) {
    const paths = entry.paths.filter((p) => existsSync(p));
    if (entry.paths.length > 0 && paths.length === 0) {
      done.push(entry.file);
      continue;
    }
    const own = adapters.filter((a) => !entry.agents || entry.agents.includes(a.agent));
    try {
      const found = await resolveInputs(paths, own, env, entry.cwd ?? cwd, known);
      for (const file of found.files) {
        if (present.has(file.path)) continue;
        inputs.files.push(file);
        present.add(file.path);
      }
      done.push(entry.file);
    } catch {
      // Left queued: the next run tries again.
    }
  }
  return done;
}
