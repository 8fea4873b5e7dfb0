// Owns reading appended JSONL bytes: complete lines only (split on \n alone), from a byte offset,
// in bounded batches, plus the prefix hash that tells an append from a rewrite.
import { closeSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { LineRecord } from '../../../sources/types.js';
import { LONG_LINE_BYTES, LineShrinker, sourceLine } from '../../../shared/long-json.js';

const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 4 * 1024;

/** Reused by every prefixHash of this thread: a fresh 68 KB per file piled up as garbage off the heap. */
const hashScratch = Buffer.allocUnsafe(HEAD_BYTES + TAIL_BYTES);

/** What a prefix hash covers: bytes [0, headLen) and [tailStart, offset) (none when tailStart = offset). */
function prefixRanges(offset: number): { headLen: number; tailStart: number } {
  const headLen = Math.min(offset, HEAD_BYTES);
  return { headLen, tailStart: Math.max(headLen, offset - TAIL_BYTES) };
}

function digestPrefix(head: Buffer, tail: Buffer | undefined, offset: number): string {
  const hash = createHash('sha256').update(head);
  if (tail) hash.update(tail);
  return hash.update(String(offset)).digest('hex');
}

/**
 * Hash identifying the first `offset` bytes of a file: its first 64 KiB and the 4 KiB before `offset`.
 * A rewrite or truncation changes it; an append does not.
 */
export function prefixHash(fd: number, offset: number): string {
  const { headLen, tailStart } = prefixRanges(offset);
  const head = hashScratch.subarray(0, headLen);
  readFully(fd, head, 0);
  if (tailStart >= offset) return digestPrefix(head, undefined, offset);
  const tail = hashScratch.subarray(HEAD_BYTES, HEAD_BYTES + offset - tailStart);
  readFully(fd, tail, tailStart);
  return digestPrefix(head, tail, offset);
}

/** prefixHash of a file whose first `offset` (or more) bytes are `bytes`, without reading it again. */
export function prefixHashOfBytes(bytes: Buffer, offset: number): string {
  const { headLen, tailStart } = prefixRanges(offset);
  return digestPrefix(
    bytes.subarray(0, headLen),
    tailStart < offset ? bytes.subarray(tailStart, offset) : undefined,
    offset,
  );
}

/** Fills `buf` from `position`; what a shorter file leaves unread is zeroed, as Buffer.alloc left it. */
function readFully(fd: number, buf: Buffer, position: number): void {
  let done = 0;
  while (done < buf.length) {
    const n = readSync(fd, buf, done, buf.length - done, position + done);
    if (n <= 0) break;
    done += n;
  }
  buf.fill(0, done);
}

export interface LineBatch {
  lines: LineRecord[];
  bytes: number;
}

export interface ReadLinesResult {
  /** Byte offset after the last complete line consumed. */
  endOffset: number;
  /** Number of the last line consumed (1-based count of lines so far). */
  endLine: number;
}

/** Bytes read at once: a typical history file is read whole (a longer line spans chunks). */
export const CHUNK = 512 * 1024;
const BATCH_BYTES = 8 * 1024 * 1024;

function looksCompleteJson(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

/** The next chunk of a source's bytes (valid until the next call), or undefined at its end. */
export type NextChunk = () => Buffer | undefined;

/** Chunks of `fd` from `offset` up to `size`, read here into one reused buffer. */
export function fdChunks(fd: number, offset: number, size: number): NextChunk {
  let position = offset;
  // Sized to what is left to read: most sources are smaller than CHUNK.
  const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, size - offset)));
  return () => {
    if (position >= size) return undefined;
    const n = readSync(fd, chunk, 0, Math.min(CHUNK, size - position), position);
    if (n <= 0) {
      position = size;
      return undefined;
    }
    position += n;
    return chunk.subarray(0, n);
  };
}

/**
 * Reads complete lines from `offset` (the chunks of `next`) and calls `onBatch` with batches of about
 * 8 MB. The last line counts as complete when it ends with \n, or when it is a whole JSON object (a
 * file whose writer omitted the final newline). An incomplete tail is left for the next run.
 */
/** A file's first line without the UTF-8 byte order mark some editors write (JSON.parse rejects it). */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A line without the NUL runs a crash leaves around it (space allocated, never written): its content stays. */
function withoutNulPadding(text: string): string {
  return text.replace(/^\u0000+|\u0000+$/g, '');
}

export function readCompleteLines(
  next: NextChunk,
  offset: number,
  startLine: number,
  onBatch: (batch: LineBatch) => void,
): ReadLinesResult {
  let lineNo = startLine;
  // The bytes of an unfinished line, as copies (a chunk is valid until the next call only); joined once
  // its newline arrives, so a line spanning many chunks is copied twice, not once per chunk. Past
  // LONG_LINE_BYTES it streams through a LineShrinker instead (`pending` counts its bytes either way).
  let carry: Buffer[] = [];
  let long: LineShrinker | undefined;
  let pending = 0;
  let consumed = offset;
  let batch: LineRecord[] = [];
  let batchBytes = 0;
  const flush = () => {
    if (batch.length > 0) onBatch({ lines: batch, bytes: batchBytes });
    batch = [];
    batchBytes = 0;
  };
  const pushLine = (raw: string, bytes: number) => {
    let text = lineNo === 1 && offset === 0 ? withoutBom(raw) : raw;
    if (text.charCodeAt(0) === 0 || text.charCodeAt(text.length - 1) === 0) text = withoutNulPadding(text);
    if (text.length > 0) batch.push({ text, line: lineNo });
    batchBytes += bytes;
    consumed += bytes;
    if (batchBytes >= BATCH_BYTES) flush();
  };
  for (let chunk = next(); chunk !== undefined; chunk = next()) {
    let data = chunk;
    let start = 0;
    if (pending > 0) {
      const nl = chunk.indexOf(10);
      if (nl === -1 || long) {
        const part = nl === -1 ? chunk : chunk.subarray(0, nl);
        pending += part.length;
        if (long) long.push(part);
        else carry.push(Buffer.from(part));
        if (!long && pending > LONG_LINE_BYTES) {
          long = new LineShrinker(sourceLine(lineNo + 1));
          for (const piece of carry) long.push(piece);
          carry = [];
        }
        if (nl === -1) continue;
        lineNo++;
        const kept = long!.finish();
        pushLine(kept.toString('utf8', 0, kept.at(-1) === 13 ? kept.length - 1 : kept.length), pending + 1);
        [long, pending, start] = [undefined, 0, nl + 1];
      } else {
        data = Buffer.concat([...carry, chunk]);
        carry = [];
        pending = 0;
      }
    }
    for (;;) {
      const nl = data.indexOf(10, start);
      if (nl === -1) break;
      lineNo++;
      pushLine(data.toString('utf8', start, nl > start && data[nl - 1] === 13 ? nl - 1 : nl), nl + 1 - start);
      start = nl + 1;
    }
    if (start < data.length) {
      carry = [Buffer.from(data.subarray(start))];
      pending = data.length - start;
    }
  }
  if (pending > 0) {
    const tail = long ? long.finish() : Buffer.concat(carry);
    const raw = lineNo === 0 && offset === 0 ? withoutBom(tail.toString('utf8')) : tail.toString('utf8');
    const text = withoutNulPadding(raw);
    if (looksCompleteJson(text)) {
      lineNo++;
      batch.push({ text, line: lineNo });
      batchBytes += pending;
      consumed += pending;
    }
  }
  flush();
  return { endOffset: consumed, endLine: lineNo };
}

export function withFd<T>(path: string, fn: (fd: number) => T): T {
  const fd = openSync(path, 'r');
  try {
    return fn(fd);
  } finally {
    closeSync(fd);
  }
}
