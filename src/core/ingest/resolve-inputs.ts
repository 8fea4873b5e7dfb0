// Owns turning the user's PATH arguments (or the adapters' default roots) into the list of source
// files to ingest, each with the adapter that claims it.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { findFiles } from '../../sources/find-files.js';
import type { AgentName } from '../../shared/model.js';
import type { Env } from '../../shared/paths.js';
import { StrataError, describeError } from '../../shared/errors.js';
import type { SourceAdapter } from '../../sources/types.js';

export interface SourceCandidate {
  path: string;
  adapter: SourceAdapter;
}

export interface ResolvedInputs {
  files: SourceCandidate[];
  /** Files the user named (or that sit in a folder the user named) that no adapter claims. */
  unclaimed: { path: string; reason: string }[];
  /** Files that could not be read (permissions, ...), with the reason. */
  unreadable: { path: string; reason: string }[];
  /** Roots that were scanned (existing folders). */
  roots: { agent: AgentName; root: string }[];
}

/** The first `bytes` bytes of a file as text; throws (EACCES, EISDIR, ...) when it cannot be read. */
export function readHead(path: string, bytes = 4096): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}

function tryReadHead(path: string, out: ResolvedInputs): string | undefined {
  try {
    return readHead(path);
  } catch (error) {
    out.unreadable.push({ path, reason: `cannot read: ${describeError(error)}` });
    return undefined;
  }
}

const NOT_RECOGNISED = 'not recognised as an agent history by any adapter';
function explainUnclaimed(path: string, adapters: SourceAdapter[]): string {
  for (const adapter of adapters) {
    const reason = adapter.explain?.(path);
    if (reason) return reason;
  }
  return NOT_RECOGNISED;
}

/** Resolves PATH arguments; with none, scans every adapter's default roots. Nonexistent paths are usage errors. */
export function resolveInputs(paths: string[], adapters: SourceAdapter[], env: Env, cwd: string): ResolvedInputs {
  const out: ResolvedInputs = { files: [], unclaimed: [], unreadable: [], roots: [] };
  const seen = new Set<string>();
  const add = (path: string, adapter: SourceAdapter) => {
    if (seen.has(path)) return;
    seen.add(path);
    out.files.push({ path, adapter });
  };
  if (paths.length === 0) {
    for (const adapter of adapters) {
      for (const root of adapter.defaultRoots(env)) {
        if (!existsSync(root) || !statSync(root).isDirectory()) continue;
        out.roots.push({ agent: adapter.agent, root });
        for (const file of adapter.discover(root)) add(file, adapter);
      }
    }
    return out;
  }
  const missing = paths.filter((p) => !existsSync(resolve(cwd, p)));
  if (missing.length > 0) {
    throw new StrataError('USAGE', `no such file or folder: ${missing.join(', ')}`, { details: { missing } });
  }
  const unreadable = new Set<string>();
  for (const given of paths) {
    const path = resolve(cwd, given);
    if (statSync(path).isDirectory()) {
      for (const adapter of adapters) {
        // In a folder the user names, files of several agents may sit together: each adapter
        // keeps only the files it detects as its own.
        const found = adapter.discover(path).filter((file) => {
          if (seen.has(file) || unreadable.has(file)) return false;
          const head = tryReadHead(file, out);
          if (head === undefined) unreadable.add(file);
          return head !== undefined && adapter.detect(file, head);
        });
        if (found.length > 0) out.roots.push({ agent: adapter.agent, root: path });
        for (const file of found) add(file, adapter);
      }
      // Files outside the places the adapters look (a Puffin history not under .puffin/, an Aider
      // history under another name): every adapter gets to detect them; the rest are reported.
      for (const file of findFiles(path, { maxDepth: Number.POSITIVE_INFINITY, match: () => true })) {
        if (seen.has(file) || unreadable.has(file)) continue;
        const head = tryReadHead(file, out);
        if (head === undefined) {
          unreadable.add(file);
          continue;
        }
        const adapter = adapters.find((a) => a.detect(file, head));
        if (adapter) add(file, adapter);
        else out.unclaimed.push({ path: file, reason: explainUnclaimed(file, adapters) });
      }
    } else {
      const head = tryReadHead(path, out);
      if (head === undefined) continue;
      const adapter = adapters.find((a) => a.detect(path, head));
      if (adapter) add(path, adapter);
      else out.unclaimed.push({ path, reason: explainUnclaimed(path, adapters) });
    }
  }
  return out;
}
