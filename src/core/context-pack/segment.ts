// Owns where a segment's context lives: <repo-root>/<segment>/_ctx/context_pack.json and
// <repo-root>/<segment>/_ctx/context.db. Every read and write goes through these paths, so
// nothing crosses segments.
import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { StrataError } from '../../shared/errors.js';

const CTX_DIR = '_ctx';
const PACK_FILE = 'context_pack.json';
const DB_FILE = 'context.db';

export interface SegmentPaths {
  /** Segment name recorded in the pack (the directory's base name). */
  name: string;
  /** The repo root, symlinks resolved: nothing is read or written outside it (--output aside). */
  root: string;
  /** The segment directory, symlinks resolved. */
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

/** True when `path` is `root` or lies under it (both already resolved). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realpathIfExists(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Resolves a segment's paths with symlinks resolved: USAGE if the segment escapes the repo root or
 * its `_ctx` is a symlink or leads outside it, NOT_FOUND if the segment is not a directory.
 */
export function resolveSegment(loc: SegmentLocator): SegmentPaths {
  const given = resolve(loc.repoRoot);
  const root = realpathIfExists(given);
  if (!root || !statSync(root).isDirectory()) throw new StrataError('NOT_FOUND', `repo root not found: ${given}`);
  const segment = loc.segment ?? '.';
  if (segment.trim() === '') throw new StrataError('USAGE', 'segment name is empty');
  if (isAbsolute(segment))
    throw new StrataError('USAGE', `--segment must be a path relative to --repo-root, got "${segment}"`);
  const lexical = resolve(root, segment);
  if (!isInside(root, lexical))
    throw new StrataError('USAGE', `--segment "${segment}" leads outside the repo root ${root}`);
  const dir = realpathIfExists(lexical);
  if (!dir || !statSync(dir).isDirectory())
    throw new StrataError('NOT_FOUND', `segment directory not found: ${lexical}`);
  if (!isInside(root, dir))
    throw new StrataError('USAGE', `--segment "${segment}" is a link to ${dir}, outside the repo root ${root}`);
  const ctxDir = join(dir, CTX_DIR);
  const ctxStat = lstatIfExists(ctxDir);
  if (ctxStat && !ctxStat.isDirectory()) {
    throw new StrataError(
      'USAGE',
      `${ctxDir} is ${ctxStat.isSymbolicLink() ? 'a symlink' : 'not a directory'}; strata reads and writes packs ` +
        `only in a real _ctx directory inside the segment`,
    );
  }
  const dbPath = join(ctxDir, DB_FILE);
  const db = lstatIfExists(dbPath);
  if (db && !db.isFile())
    throw new StrataError(
      'USAGE',
      `${dbPath} is not a regular file (a symlink or special file); remove it and run \`strata pack build\``,
    );
  return {
    name: basename(dir),
    root,
    dir,
    ctxDir,
    packPath: loc.output ? resolve(root, loc.output) : join(ctxDir, PACK_FILE),
    dbPath,
    lockPath: join(ctxDir, '.build.lock'),
  };
}

function lstatIfExists(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
