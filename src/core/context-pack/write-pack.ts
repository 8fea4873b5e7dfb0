// Owns building a segment's context on disk: under a per-segment lock, build the pack (reusing
// unchanged docs from the previous pack), check it against the JSON Schema, rebuild context.db in a
// temp file renamed into place, then write the JSON atomically; temps of killed builds are removed.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock } from '../../shared/file-lock.js';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { StrataError, describeError } from '../../shared/errors.js';
import { buildContextPack, defaultBuildPackDeps, type BuildPackDeps, type BuildPackResult } from './build-pack.js';
import { BUILD_TEMP_RE, writeContextDb } from './context-db.js';
import { assertValidPack } from './pack-schema.js';
import { resolveSegment, type SegmentLocator, type SegmentPaths } from './segment.js';
import type { ContextPack } from './types.js';

export interface WritePackOptions extends SegmentLocator {
  include?: string[] | undefined;
  exclude?: string[] | undefined;
  maxChars?: number | undefined;
}

export interface WritePackResult extends BuildPackResult {
  paths: SegmentPaths;
  packBytes: number;
  dbBytes: number;
  /** Wall-clock milliseconds per phase (for benchmarks and `pack build --json`). */
  timings: Record<'read_previous_ms' | 'build_ms' | 'validate_ms' | 'write_json_ms' | 'write_db_ms', number>;
}

/** Reads and validates a pack; NOT_FOUND if missing, SCHEMA if it is not a valid v1 pack. */
export function readPack(packPath: string): ContextPack {
  if (!existsSync(packPath))
    throw new StrataError('NOT_FOUND', `no context pack at ${packPath}; run \`strata pack build\` first`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(packPath, 'utf8'));
  } catch (error) {
    throw new StrataError('SCHEMA', `${packPath} is not valid JSON: ${describeError(error)}`);
  }
  assertValidPack(value, packPath);
  return value;
}

/**
 * The previous pack when it can be reused. Only its shape is checked here (parsing is the cost
 * that matters); reused entries are validated with the new pack before anything is written.
 */
function previousPack(packPath: string): ContextPack | undefined {
  try {
    if (!existsSync(packPath)) return undefined;
    const value = JSON.parse(readFileSync(packPath, 'utf8')) as Partial<ContextPack> | null;
    const arrays = value && [value.docs, value.index, value.chunks, value.digest].every(Array.isArray);
    return arrays && value.schema_version === 1 ? (value as ContextPack) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serialises a pack as JSON with one top-level field per line and one array element per line:
 * deterministic, diff- and grep-friendly, and far smaller than fully indented JSON.
 */
export function serializePack(pack: ContextPack): string {
  const parts: string[] = ['{\n'];
  const entries = Object.entries(pack);
  entries.forEach(([key, value], k) => {
    parts.push('  ', JSON.stringify(key), ': ');
    if (!Array.isArray(value)) parts.push(JSON.stringify(value));
    else if (value.length === 0) parts.push('[]');
    else {
      parts.push('[\n');
      for (let i = 0; i < value.length; i++) parts.push(i === 0 ? '    ' : ',\n    ', JSON.stringify(value[i]));
      parts.push('\n  ]');
    }
    parts.push(k === entries.length - 1 ? '\n}\n' : ',\n');
  });
  return parts.join('');
}

/** Removes temp files of builds that were killed (we hold the lock, so none is being written). */
function removeStaleTemps(ctxDir: string): void {
  let names: string[];
  try {
    names = readdirSync(ctxDir);
  } catch {
    return;
  }
  for (const name of names) if (BUILD_TEMP_RE.test(name)) rmSync(join(ctxDir, name), { force: true });
}

/** Builds and writes <segment>/_ctx/context_pack.json (or --output) and <segment>/_ctx/context.db. */
export function writeContextPack(
  options: WritePackOptions,
  deps: BuildPackDeps = defaultBuildPackDeps,
): WritePackResult {
  const paths = resolveSegment(options);
  const lock = acquireLock(paths.lockPath, { timeoutMs: 30_000, command: `pack build ${paths.name}` });
  try {
    removeStaleTemps(paths.ctxDir);
    const input = {
      segment: paths.name,
      segmentDir: paths.dir,
      allowedRoot: paths.root,
      include: options.include,
      exclude: options.exclude,
      maxChars: options.maxChars,
    };
    const timings = { read_previous_ms: 0, build_ms: 0, validate_ms: 0, write_json_ms: 0, write_db_ms: 0 };
    let t = performance.now();
    const lap = (key: keyof typeof timings): void => {
      const now = performance.now();
      timings[key] += Math.round(now - t);
      t = now;
    };
    const previous = previousPack(paths.packPath);
    lap('read_previous_ms');
    let result = buildContextPack({ ...input, previous }, deps);
    lap('build_ms');
    try {
      assertValidPack(result.pack);
    } catch (error) {
      // A damaged previous pack must not poison the new one: rebuild every doc, then check again.
      if (result.reusedDocs.length === 0) throw error;
      result = buildContextPack(input, deps);
      assertValidPack(result.pack);
    }
    lap('validate_ms');
    const json = serializePack(result.pack);
    // The database first, keeping the last pack's ids: a build killed between the two renames
    // leaves the old JSON beside a database that still answers every id it lists.
    writeContextDb(paths.dbPath, result.pack, previous);
    lap('write_db_ms');
    writeFileAtomic(paths.packPath, json);
    lap('write_json_ms');
    return { ...result, paths, packBytes: Buffer.byteLength(json), dbBytes: statSync(paths.dbPath).size, timings };
  } finally {
    lock.release();
  }
}
