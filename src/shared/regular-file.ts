// Owns opening files strata reads from disk it does not control: only regular files, never blocking on a
// FIFO or device (O_NONBLOCK, then fstat), and, where asked, never through a symlink or out of a folder.
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { join, sep } from 'node:path';

/** What a non-regular file is, in words for a report ("FIFO", "socket", ...). */
function fileTypeName(stat: Stats): string {
  if (stat.isFIFO()) return 'FIFO';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isBlockDevice()) return 'block device';
  if (stat.isSymbolicLink()) return 'symbolic link';
  if (stat.isDirectory()) return 'folder';
  return 'regular file';
}

/** An error with code ENOTREG, one line, for a path that is not a regular file. */
export function notRegularFileError(_path: string, stat: Stats): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`not a regular file (${fileTypeName(stat)})`);
  error.code = 'ENOTREG';
  return error;
}

export interface OpenRegularOptions {
  /** false: a symlink as the last path component is refused (ELOOP) instead of followed. */
  followSymlinks?: boolean;
}

/** Opens `path` read-only if it is a regular file; throws (ENOTREG, ELOOP, ENOENT, ...) otherwise, never blocks. */
export function openRegularFileSync(path: string, options: OpenRegularOptions = {}): number {
  const flags =
    constants.O_RDONLY | constants.O_NONBLOCK | (options.followSymlinks === false ? constants.O_NOFOLLOW : 0);
  const fd = openSync(path, flags);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notRegularFileError(path, stat);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The first `maxBytes` of a regular file and its size; throws like openRegularFileSync. */
export function readRegularFileHead(
  path: string,
  maxBytes: number,
  options: OpenRegularOptions = {},
): { bytes: Buffer; size: number } {
  const fd = openRegularFileSync(path, options);
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return { bytes: buffer.subarray(0, read), size };
  } finally {
    closeSync(fd);
  }
}

/**
 * True when `path`, with every symlink resolved, lies inside `folder` (also resolved). False when either is missing.
 */
export function isInsideFolder(path: string, folder: string): boolean {
  try {
    const real = realpathSync(path);
    const root = realpathSync(folder);
    return real.startsWith(root.endsWith(sep) ? root : root + sep);
  } catch {
    return false;
  }
}

/**
 * True for a directory entry whose name held bytes that are not UTF-8: read back as text (with U+FFFD)
 * it names no file, so it can be neither opened nor stored as a path.
 */
export function hasUnreadableName(dir: string, name: string): boolean {
  return name.includes('\uFFFD') && !existsSync(join(dir, name));
}
