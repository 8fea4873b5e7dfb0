// Owns turning the user's PATH arguments (or the adapters' default roots) into the list of source
// files to ingest, each with the adapter that claims it.
import { closeSync, constants, existsSync, readSync, statSync } from 'node:fs';
import { notRegularFileError, openRegularFileSync } from '../../shared/regular-file.js';
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

/**
 * The first `bytes` bytes of a file as text; throws (EACCES, EISDIR, ...) when it cannot be read. `buf`
 * (at least `bytes` long) is reused by callers that read many heads.
 */
export function readHead(path: string, bytes = 4096, buf = Buffer.alloc(bytes)): string {
  const fd = openRegularFileSync(path);
  try {
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}

/** How many head reads `detectAll` keeps in flight (libuv runs 4 at a time by default). */
const HEAD_READS_IN_FLIGHT = 16;
/** A synchronous head read slower than this came from the disk, not the page cache (see detectAll). */
const SLOW_HEAD_READ_MS = 1;
/** Slow reads after which detectAll reads concurrently (one alone may be the VM pausing the thread). */
const SLOW_HEAD_READS = 3;

/** What the adapters make of a file's head: the agents whose detect() claims it, or why it cannot be read. */
export type Verdict = { agents: string[] } | { unreadable: string };

function verdictOf(path: string, head: string, adapters: SourceAdapter[]): Verdict {
  return { agents: adapters.filter((a) => a.detect(path, head)).map((a) => a.agent) };
}

function unreadableVerdict(error: unknown): Verdict {
  return { unreadable: `cannot read: ${describeError(error)}` };
}

/**
 * Reads the head of each file once and asks every adapter whether the file is its own. Only the verdicts
 * are kept, not the heads. From the page cache a synchronous read is ~3x cheaper than a pooled one (3,300
 * files: 80 ms against 250), so heads are read one after another until SLOW_HEAD_READS were slow (the
 * disk). On a cold cache (a first ingest of histories written weeks ago) one read at a time costs a disk
 * round trip per file, ~2.7 ms each here: from then on, HEAD_READS_IN_FLIGHT are kept in flight.
 */
export async function detectAll(
  paths: string[],
  adapters: SourceAdapter[],
  bytes = 4096,
  slowReadMs = SLOW_HEAD_READ_MS,
): Promise<Map<string, Verdict>> {
  const verdicts = new Map<string, Verdict>();
  const buf = Buffer.alloc(bytes);
  let next = 0;
  let slowReads = 0;
  while (next < paths.length && slowReads < SLOW_HEAD_READS) {
    const path = paths[next++]!;
    const started = performance.now();
    try {
      const head = readHead(path, bytes, buf);
      if (performance.now() - started > slowReadMs) slowReads++;
      verdicts.set(path, verdictOf(path, head, adapters));
    } catch (error) {
      verdicts.set(path, unreadableVerdict(error));
    }
  }
  const lane = async (): Promise<void> => {
    const laneBuf = Buffer.alloc(bytes);
    while (next < paths.length) {
      const path = paths[next++]!;
      try {
        // O_NONBLOCK and a stat before reading: a FIFO or device is reported, never waited on.
        const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
        let head: string;
        try {
          const stat = await handle.stat();
          if (!stat.isFile()) throw notRegularFileError(path, stat);
          const { bytesRead } = await handle.read(laneBuf, 0, bytes, 0);
          head = laneBuf.toString('utf8', 0, bytesRead);
        } finally {
          await handle.close();
        }
        verdicts.set(path, verdictOf(path, head, adapters));
      } catch (error) {
        verdicts.set(path, unreadableVerdict(error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(HEAD_READS_IN_FLIGHT, paths.length - next) }, lane));
  return verdicts;
}

const NOT_RECOGNISED = 'not recognised as an agent history by any adapter';
function explainUnclaimed(path: string, adapters: SourceAdapter[]): string {
  for (const adapter of adapters) {
    const reason = adapter.explain?.(path);
    if (reason) return reason;
  }
  return NOT_RECOGNISED;
}

/** Device and inode of a file (the same for every path that reaches it), or undefined if it cannot be stat'ed. */
function fileIdentity(path: string): string | undefined {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined; // reading it reports why
  }
}

/** Why `path` cannot be read as a regular file (a FIFO, socket, device, folder), or undefined. */
function notRegularReason(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() ? undefined : notRegularFileError(path, stat).message;
  } catch {
    return undefined; // vanished or unreadable: reading it reports why
  }
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
export async function resolveInputs(
  paths: string[],
  adapters: SourceAdapter[],
  env: Env,
  cwd: string,
  known: ReadonlyMap<string, KnownFile> = new Map(),
): Promise<ResolvedInputs> {
  const out: ResolvedInputs = { files: [], unclaimed: [], unreadable: [], roots: [] };
  const seen = new Set<string>();
  // One file reached under two paths (a symlinked root, a hard link) is one source: the path the store
  // knows it by, else the first met.
  const byIdentity = new Map<string, number>();
  const add = (path: string, adapter: SourceAdapter) => {
    if (seen.has(path)) return;
    seen.add(path);
    const identity = fileIdentity(path);
    const at = identity === undefined ? undefined : byIdentity.get(identity);
    if (at !== undefined) {
      if (known.has(path) && !known.has(out.files[at]!.path)) out.files[at] = { path, adapter };
      return;
    }
    if (identity !== undefined) byIdentity.set(identity, out.files.length);
    out.files.push({ path, adapter });
  };
  if (paths.length === 0) {
    for (const adapter of adapters) {
      for (const root of adapter.defaultRoots(env)) {
        if (!existsSync(root) || !statSync(root).isDirectory()) continue;
        out.roots.push({ agent: adapter.agent, root });
        const skip = (path: string, reason: string): void => {
          if (seen.has(path)) return;
          seen.add(path);
          out.unreadable.push({ path, reason });
        };
        for (const file of adapter.discover(root, skip)) {
          // The same check as a named path: a FIFO or device is listed, never opened (it would block).
          const reason = notRegularReason(file);
          if (reason) skip(file, reason);
          else add(file, adapter);
        }
      }
    }
    return out;
  }
  const missing = paths.filter((p) => !existsSync(resolve(cwd, p)));
  if (missing.length > 0) {
    throw new StrataError('USAGE', `no such file or folder: ${missing.join(', ')}`, { details: { missing } });
  }
  const unreadable = new Set<string>();
  const ownAgent = new Set<string>(adapters.map((a) => a.agent));
  /** The agent the store remembers for an unchanged file, if one of `adapters` is that agent's. */
  const remembered = (file: string): string | undefined => {
    const row = known.get(file);
    if (!row || !ownAgent.has(row.agent)) return undefined;
    try {
      const stat = statSync(file);
      return stat.size === row.size && stat.mtimeMs === row.mtime_ms ? row.agent : undefined;
    } catch {
      return undefined; // detection reports it
    }
  };
  /** The adapter (of `among`) that claims `file`: the remembered one, else the first whose detect() says so. */
  const claimant = (
    file: string,
    among: SourceAdapter[],
    verdicts: Map<string, Verdict>,
  ): SourceAdapter | undefined => {
    const verdict = verdicts.get(file);
    if (verdict === undefined) return undefined;
    if ('unreadable' in verdict) {
      if (!unreadable.has(file)) {
        unreadable.add(file);
        out.unreadable.push({ path: file, reason: verdict.unreadable });
      }
      return undefined;
    }
    return among.find((a) => verdict.agents.includes(a.agent));
  };
  /** Verdicts for these files: remembered agents as they are, every other file's head read once. */
  const judge = async (files: string[]): Promise<Map<string, Verdict>> => {
    const verdicts = new Map<string, Verdict>();
    const unknown: string[] = [];
    for (const file of files) {
      const agent = remembered(file);
      if (agent !== undefined) verdicts.set(file, { agents: [agent] });
      else unknown.push(file);
    }
    for (const [file, verdict] of await detectAll(unknown, adapters)) verdicts.set(file, verdict);
    return verdicts;
  };
  for (const given of paths) {
    const path = resolve(cwd, given);
    if (statSync(path).isDirectory()) {
      const skipped: { path: string; reason: string }[] = [];
      const everyFile = findFiles(path, {
        maxDepth: Number.POSITIVE_INFINITY,
        match: () => true,
        // A FIFO, an unreadable folder or a name that is not UTF-8 no adapter can read; a symlink an
        // adapter may find by name and follow, so it is reported only if none claims it.
        onSkipped: (file, reason) => {
          if (/^symbolic link/.test(reason)) skipped.push({ path: file, reason });
          else if (!unreadable.has(file)) {
            unreadable.add(file);
            out.unreadable.push({ path: file, reason });
          }
        },
      });
      const discovered = adapters.map((adapter) => adapter.discover(path));
      const candidates = new Set([...discovered.flat(), ...everyFile]);
      const verdicts = await judge([...candidates].filter((file) => !seen.has(file) && !unreadable.has(file)));
      for (const [i, adapter] of adapters.entries()) {
        // In a folder the user names, files of several agents may sit together: each adapter
        // keeps only the files it detects as its own.
        const found = discovered[i]!.filter(
          (file) => !seen.has(file) && !unreadable.has(file) && claimant(file, [adapter], verdicts) === adapter,
        );
        if (found.length > 0) out.roots.push({ agent: adapter.agent, root: path });
        for (const file of found) add(file, adapter);
      }
      // Files outside the places the adapters look (a Puffin history not under .puffin/, an Aider
      // history under another name): every adapter gets to detect them; the rest are reported.
      for (const file of everyFile) {
        if (seen.has(file) || unreadable.has(file)) continue;
        const adapter = claimant(file, adapters, verdicts);
        if (adapter) add(file, adapter);
        else if (!unreadable.has(file)) out.unclaimed.push({ path: file, reason: explainUnclaimed(file, adapters) });
      }
      for (const entry of skipped) {
        if (seen.has(entry.path) || unreadable.has(entry.path)) continue;
        unreadable.add(entry.path);
        out.unreadable.push(entry);
      }
    } else {
      const adapter = claimant(path, adapters, await judge([path]));
      if (adapter) add(path, adapter);
      else if (!unreadable.has(path)) out.unclaimed.push({ path, reason: explainUnclaimed(path, adapters) });
    }
  }
  return out;
}
