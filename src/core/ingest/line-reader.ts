// Owns reading appended JSONL bytes: complete lines only (split on \n alone), from a byte offset,
// in bounded batches, plus the prefix hash that tells an append from a rewrite.
import { closeSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { LineRecord } from '../../sources/types.js';

const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 4 * 1024;

/**
 * Hash identifying the first `offset` bytes of a file: its first 64 KiB and the 4 KiB before `offset`.
 * A rewrite or truncation changes it; an append does not.
 */
export function prefixHash(fd: number, offset: number): string {
  const hash = createHash('sha256');
  const headLen = Math.min(offset, HEAD_BYTES);
  const head = Buffer.alloc(headLen);
  readSync(fd, head, 0, headLen, 0);
  hash.update(head);
  const tailStart = Math.max(headLen, offset - TAIL_BYTES);
  if (tailStart < offset) {
    const tail = Buffer.alloc(offset - tailStart);
    readSync(fd, tail, 0, tail.length, tailStart);
    hash.update(tail);
  }
  hash.update(String(offset));
  return hash.digest('hex');
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

const CHUNK = 4 * 1024 * 1024;
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

/**
 * Reads complete lines of `fd` from `offset` to EOF and calls `onBatch` with batches of about 8 MB.
 * The last line counts as complete when it ends with \n, or when it is a whole JSON object (a file
 * whose writer omitted the final newline). An incomplete tail is left for the next run.
 */
export function readCompleteLines(fd: number, offset: number, startLine: number, size: number, onBatch: (batch: LineBatch) => void): ReadLinesResult {
  let position = offset;
  let lineNo = startLine;
  let carry: Buffer = Buffer.alloc(0);
  let consumed = offset;
  let batch: LineRecord[] = [];
  let batchBytes = 0;
  const flush = () => {
    if (batch.length > 0) onBatch({ lines: batch, bytes: batchBytes });
    batch = [];
    batchBytes = 0;
  };
  // Sized to what is left to read: most sources are far smaller than CHUNK, and zero-filling 4 MB per file shows.
  const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, size - offset)));
  while (position < size) {
    const n = readSync(fd, chunk, 0, Math.min(CHUNK, size - position), position);
    if (n <= 0) break;
    position += n;
    const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
    let start = 0;
    for (;;) {
      const nl = data.indexOf(10, start);
      if (nl === -1) break;
      lineNo++;
      const text = data.toString('utf8', start, nl > start && data[nl - 1] === 13 ? nl - 1 : nl);
      if (text.length > 0) batch.push({ text, line: lineNo });
      batchBytes += nl + 1 - start;
      consumed += nl + 1 - start;
      start = nl + 1;
      if (batchBytes >= BATCH_BYTES) flush();
    }
    carry = Buffer.from(data.subarray(start));
  }
  if (carry.length > 0) {
    const text = carry.toString('utf8');
    if (looksCompleteJson(text)) {
      lineNo++;
      batch.push({ text, line: lineNo });
      batchBytes += carry.length;
      consumed += carry.length;
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
