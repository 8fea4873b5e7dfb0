// Owns turning the user's PATH arguments (or the adapters' default roots) into the list of source
// files to ingest, each with the adapter that claims it.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
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

/** How many head reads `prefetchHeads` keeps in flight (libuv runs 4 at a time by default). */
const PREFETCH_CONCURRENCY = 16;

/**
 * Reads the heads of these files concurrently and drops them: the synchronous detection pass that follows
 * then finds them in the page cache. On a cold cache (a first ingest of histories written weeks ago) one
 * read at a time costs a disk round trip per file, ~2.7 ms each here. Errors are left to that pass.
 */
export async function prefetchHeads(paths: string[], bytes = 4096): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    const buf = Buffer.alloc(bytes);
    while (next < paths.length) {
      const path = paths[next++]!;
      try {
        const handle = await open(path, 'r');
        try {
          await handle.read(buf, 0, bytes, 0);
        } finally {
          await handle.close();
        }
      } catch {
        // reported by tryReadHead
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PREFETCH_CONCURRENCY, paths.length) }, lane));
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

/** What the store remembers of a source file: the agent that claimed it at this size and modification time. */
export interface KnownFile {
  agent: string;
  size: number;
  mtime_ms: number;
}

/**
 * Resolves PATH arguments; with none, scans every adapter's default roots. Nonexistent paths are usage errors.
 * `known`: files already in the store. One that has not changed since (same size and modification time) keeps
 * the agent that claimed it without its head being read again, so a re-ingest of unchanged files reads none.
 */
export async function resolveInputs(paths: string[], adapters: SourceAdapter[], env: Env, cwd: string, known: ReadonlyMap<string, KnownFile> = new Map()): Promise<ResolvedInputs> {
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
  const remembered = (file: string): string | undefined => {
    const row = known.get(file);
    if (!row) return undefined;
    const stat = statSync(file, { throwIfNoEntry: false });
    return stat && stat.size === row.size && stat.mtimeMs === row.mtime_ms ? row.agent : undefined;
  };
  /** The adapter (of `among`) that claims `file`: the remembered one, else the first whose detect() says so. */
  const claimant = (file: string, among: SourceAdapter[], agents: Map<string, string | undefined>): SourceAdapter | undefined => {
    const agent = agents.has(file) ? agents.get(file) : remembered(file);
    if (agent !== undefined) return among.find((a) => a.agent === agent);
    const head = tryReadHead(file, out);
    if (head === undefined) {
      unreadable.add(file);
      return undefined;
    }
    return among.find((a) => a.detect(file, head));
  };
  for (const given of paths) {
    const path = resolve(cwd, given);
    if (statSync(path).isDirectory()) {
      const everyFile = findFiles(path, { maxDepth: Number.POSITIVE_INFINITY, match: () => true });
      const agents = new Map<string, string | undefined>(everyFile.map((file) => [file, remembered(file)]));
      await prefetchHeads(everyFile.filter((file) => !seen.has(file) && agents.get(file) === undefined));
      for (const adapter of adapters) {
        // In a folder the user names, files of several agents may sit together: each adapter
        // keeps only the files it detects as its own.
        const found = adapter.discover(path).filter((file) => !seen.has(file) && !unreadable.has(file) && claimant(file, [adapter], agents) === adapter);
        if (found.length > 0) out.roots.push({ agent: adapter.agent, root: path });
        for (const file of found) add(file, adapter);
      }
      // Files outside the places the adapters look (a Puffin history not under .puffin/, an Aider
      // history under another name): every adapter gets to detect them; the rest are reported.
      for (const file of everyFile) {
        if (seen.has(file) || unreadable.has(file)) continue;
        const adapter = claimant(file, adapters, agents);
        if (adapter) add(file, adapter);
        else if (!unreadable.has(file)) out.unclaimed.push({ path: file, reason: explainUnclaimed(file, adapters) });
      }
    } else {
      const adapter = claimant(path, adapters, new Map());
      if (adapter) add(path, adapter);
      else if (!unreadable.has(path)) out.unclaimed.push({ path, reason: explainUnclaimed(path, adapters) });
    }
  }
  return out;
}
