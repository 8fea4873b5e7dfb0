// Owns the deferred-ingest queue: a writer that meets a held store lock (a session-end hook) records what
// it would have ingested as one small file in `<store>.deferred/`, and the next ingest of any writer reads
// those files, ingests what they name with its own run, and removes exactly the files it read.
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import type { AgentName } from '../../shared/model.js';

export interface DeferredIngest {
  /** Files to ingest; empty: the default locations of `agents`. */
  paths: string[];
  agents?: AgentName[];
  cwd?: string;
  /** When the work was deferred (ISO time). */
  at: string;
}

export interface DeferredEntry extends DeferredIngest {
  file: string;
}

export const deferredDir = (storePath: string): string => `${storePath}.deferred`;

/** Records one piece of deferred work; each call its own file, so concurrent hooks never overwrite each other. */
export function recordDeferred(storePath: string, work: Omit<DeferredIngest, 'at'>, now = new Date()): string {
  const dir = deferredDir(storePath);
  mkdirSync(dir, { recursive: true });
  const key = createHash('sha256')
    .update(JSON.stringify([work.paths, work.agents]))
    .digest('hex')
    .slice(0, 16);
  const file = join(dir, `${key}-${now.getTime()}-${process.pid}.json`);
  writeFileAtomic(file, JSON.stringify({ ...work, at: now.toISOString() }) + '\n');
  return file;
}

function parseEntry(file: string): DeferredEntry | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<DeferredIngest>;
    if (!Array.isArray(value.paths) || !value.paths.every((p) => typeof p === 'string')) return undefined;
    return {
      file,
      paths: value.paths,
      ...(Array.isArray(value.agents) ? { agents: value.agents } : {}),
      ...(typeof value.cwd === 'string' ? { cwd: value.cwd } : {}),
      at: String(value.at),
    };
  } catch {
    return undefined;
  }
}

/** The deferred work waiting for the store, oldest first. */
export function pendingDeferred(storePath: string): { entries: DeferredEntry[]; unreadable: string[] } {
  const dir = deferredDir(storePath);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return { entries: [], unreadable: [] };
  }
  const files = names.sort().map((n) => join(dir, n));
  const entries = files.map(parseEntry).filter((e): e is DeferredEntry => e !== undefined);
  // Unreadable entries are removed with the first run's work.
  const unreadable = files.filter((f) => !entries.some((e) => e.file === f));
  return { entries: entries.sort((a, b) => a.at.localeCompare(b.at)), unreadable };
}

/** Removes the entries a run has done (only those: work deferred meanwhile stays queued). */
export function clearDeferred(files: string[]): void {
  for (const file of files) rmSync(file, { force: true });
}

/** True when some deferred work waits for the next writer. */
export function hasDeferred(storePath: string): boolean {
  try {
    return readdirSync(deferredDir(storePath)).some((n) => n.endsWith('.json'));
  } catch {
    return false;
  }
}
