// Owns building a segment's context on disk: under a per-segment lock, build the pack (reusing
// unchanged docs from the previous pack), check it against the JSON Schema, write the JSON
// atomically, and rebuild context.db in a temp file renamed into place.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { acquireLock } from '../../shared/file-lock.js';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { StrataError, describeError } from '../../shared/errors.js';
import { buildContextPack, defaultBuildPackDeps, type BuildPackDeps, type BuildPackResult } from './build-pack.js';
import { writeContextDb } from './context-db.js';
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
}

/** Reads and validates a pack; NOT_FOUND if missing, SCHEMA if it is not a valid v1 pack. */
export function readPack(packPath: string): ContextPack {
  if (!existsSync(packPath)) throw new StrataError('NOT_FOUND', `no context pack at ${packPath}; run \`strata pack build\` first`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(packPath, 'utf8'));
  } catch (error) {
    throw new StrataError('SCHEMA', `${packPath} is not valid JSON: ${describeError(error)}`);
  }
  assertValidPack(value, packPath);
  return value;
}

/** The previous pack when it can be reused; anything unreadable is simply rebuilt from scratch. */
function previousPack(packPath: string): ContextPack | undefined {
  try {
    return existsSync(packPath) ? readPack(packPath) : undefined;
  } catch {
    return undefined;
  }
}

/** Builds and writes <segment>/_ctx/context_pack.json (or --output) and <segment>/_ctx/context.db. */
export function writeContextPack(options: WritePackOptions, deps: BuildPackDeps = defaultBuildPackDeps): WritePackResult {
  const paths = resolveSegment(options);
  const lock = acquireLock(paths.lockPath, { timeoutMs: 30_000, command: `pack build ${paths.name}` });
  try {
    const result = buildContextPack(
      {
        segment: paths.name,
        segmentDir: paths.dir,
        include: options.include,
        exclude: options.exclude,
        maxChars: options.maxChars,
        previous: previousPack(paths.packPath),
      },
      deps,
    );
    assertValidPack(result.pack);
    const json = JSON.stringify(result.pack, null, 2) + '\n';
    writeFileAtomic(paths.packPath, json);
    writeContextDb(paths.dbPath, result.pack);
    return { ...result, paths, packBytes: Buffer.byteLength(json), dbBytes: statSync(paths.dbPath).size };
  } finally {
    lock.release();
  }
}
