// Owns where a segment's context lives: <repo-root>/<segment>/_ctx/context_pack.json and
// <repo-root>/<segment>/_ctx/context.db. Every read and write goes through these paths, so
// nothing crosses segments.
import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { StrataError } from '../../shared/errors.js';

export const CTX_DIR = '_ctx';
export const PACK_FILE = 'context_pack.json';
export const DB_FILE = 'context.db';

export interface SegmentPaths {
  /** Segment name recorded in the pack (the directory's base name). */
  name: string;
  dir: string;
  ctxDir: string;
  packPath: string;
  dbPath: string;
  lockPath: string;
}

export interface SegmentLocator {
  /** Directory holding the segments (default: the current directory). */
  repoRoot: string;
  /** Segment directory relative to repoRoot; `.` or undefined means repoRoot itself. */
  segment?: string | undefined;
  /** Custom path for the JSON pack (the database always stays in <segment>/_ctx/). */
  output?: string | undefined;
}

/** Resolves a segment's paths; USAGE if the segment name escapes, NOT_FOUND if it is not a directory. */
export function resolveSegment(loc: SegmentLocator): SegmentPaths {
  const root = resolve(loc.repoRoot);
  const segment = loc.segment ?? '.';
  if (segment.trim() === '') throw new StrataError('USAGE', 'segment name is empty');
  const dir = resolve(root, segment);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new StrataError('NOT_FOUND', `segment directory not found: ${dir}`);
  }
  const ctxDir = join(dir, CTX_DIR);
  return {
    name: basename(dir),
    dir,
    ctxDir,
    packPath: loc.output ? resolve(root, loc.output) : join(ctxDir, PACK_FILE),
    dbPath: join(ctxDir, DB_FILE),
    lockPath: join(ctxDir, '.build.lock'),
  };
}
