// Owns crash-safe file output: write to a temp file beside the target, fsync, then rename over it.
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join, basename } from 'node:path';

export interface AtomicWriteOptions {
  /** The new file's mode (default 0644 less the umask); set exactly, whatever the umask. */
  mode?: number;
  /** The new file's owner; tried, and left to the writing user where the system refuses it. */
  owner?: { uid: number; gid: number };
}

/** Writes `data` to `path` so that readers see either the old file or the new one, never a torn file. */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  writeChunksAtomic(path, [data], options);
}

/** The temp file takes the target's mode and owner before any byte is written to it. */
function applyModeAndOwner(fd: number, options: AtomicWriteOptions): void {
  if (options.mode !== undefined) fchmodSync(fd, options.mode);
  if (!options.owner) return;
  try {
    fchownSync(fd, options.owner.uid, options.owner.gid);
  } catch {
    // Only root may give a file away: anyone else writes a file they own, as the target already was.
  }
}

/** Text pieces are gathered up to this size before each write. */
const WRITE_CHUNK_CHARS = 1 << 20;

function writeAll(fd: number, data: string | Uint8Array): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

/** writeFileAtomic for data made piece by piece: the whole file is never held in memory. */
export function writeChunksAtomic(
  path: string,
  chunks: Iterable<string | Uint8Array>,
  options: AtomicWriteOptions = {},
): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', options.mode ?? 0o644);
    applyModeAndOwner(fd, options);
    let pending = '';
    for (const chunk of chunks) {
      if (typeof chunk !== 'string') {
        writeAll(fd, pending);
        pending = '';
        writeAll(fd, chunk);
        continue;
      }
      pending += chunk;
      if (pending.length >= WRITE_CHUNK_CHARS) {
        writeAll(fd, pending);
        pending = '';
      }
    }
    writeAll(fd, pending);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
}
