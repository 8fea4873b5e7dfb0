// Owns one line-source read job: read the complete lines appended since `offset`, parse them with the
// adapter, redact and prepare them for the store, as a stream of events. Store-free, so it runs either
// inline or in the ingest worker thread (line-worker.ts) with the same results.
import type { LineAdapter } from '../../../sources/types.js';
import {
  fdChunks,
  prefixHash,
  readCompleteLines,
  withFd,
  type LineBatch,
  type NextChunk,
  type ReadLinesResult,
} from './line-reader.js';
import { createRedactor, type RedactionEntry } from '../redact.js';
import { prepareMergeOutput, type PreparedOutput } from '../prepare.js';
import { checkParsedFields } from '../field-checks.js';

export interface LineJob {
  id: number;
  path: string;
  agent: string;
  offset: number;
  startLine: number;
  size: number;
}

export type LineJobEvent =
  | {
      type: 'batch';
      job: number;
      bytes: number;
      output: PreparedOutput;
      redactions: number;
      redactionsByKind: Record<string, number>;
      redactionsWhere: RedactionEntry[];
    }
  | { type: 'end'; job: number; endOffset: number; endLine: number; prefixHash: string | null }
  | { type: 'error'; job: number; message: string; code?: string };

/** Where a job's bytes come from when they were read ahead (read-ahead.ts); else the job reads its file. */
export interface JobBytes {
  next: NextChunk;
  /** The prefix hash at `end`, one of the offsets where the complete lines read may end. */
  hash: (end: number) => string;
}

/** Why a line source whose first KB holds NUL and other control bytes is not read: binary, not a history. */
export const BINARY_FILE = 'binary file (contains NUL bytes); not an agent history';
/** How much of a text source's head is checked for NUL bytes. */
export const NUL_CHECK_BYTES = 1024;

/**
 * True when a text source's head is binary junk: NUL bytes with control bytes or invalid UTF-8. NULs among
 * text alone are crash padding (a file extended but not written), which the line reader strips.
 */
export function looksBinary(head: Buffer): boolean {
  if (!head.includes(0)) return false;
  for (const byte of head)
    if ((byte < 0x20 && byte !== 0 && byte !== 9 && byte !== 10 && byte !== 13) || byte === 0x7f) return true;
  try {
    // `stream`: a character cut by the end of the head is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(
      head.filter((byte) => byte !== 0),
      { stream: true },
    );
    return false;
  } catch {
    return true;
  }
}

/** `next`, failing with BINARY_FILE when the file read from its start looks binary in its first KB. */
function checkedForNul(next: NextChunk, offset: number): NextChunk {
  if (offset !== 0) return next;
  let first = true;
  return () => {
    const chunk = next();
    if (first && chunk) {
      first = false;
      if (looksBinary(chunk.subarray(0, NUL_CHECK_BYTES))) throw new Error(BINARY_FILE);
    }
    return chunk;
  };
}

/**
 * `packed`: the caller packs each batch's texts as UTF-8 before they are written (the worker thread). A
 * job from offset 0 checks the file's head for NUL bytes (BINARY_FILE), so the writer need not open it.
 */
export function runLineJob(
  adapter: LineAdapter,
  job: LineJob,
  redact: boolean,
  emit: (event: LineJobEvent) => void,
  packed = false,
  bytes?: JobBytes,
): void {
  const onBatch = (batch: LineBatch) => {
    const output = checkParsedFields(adapter.parseLines(batch.lines, { path: job.path }));
    // A redactor per batch: its counts travel with the batch and count only if the batch is stored.
    const redactor = createRedactor(redact);
    const prepared = prepareMergeOutput(output, redactor, packed);
    emit({
      type: 'batch',
      job: job.id,
      bytes: batch.bytes,
      output: prepared,
      redactions: redactor.count,
      redactionsByKind: { ...redactor.byKind },
      redactionsWhere: redactor.entries,
    });
  };
  const ended = (end: ReadLinesResult, hash: string | null) =>
    emit({ type: 'end', job: job.id, endOffset: end.endOffset, endLine: end.endLine, prefixHash: hash });
  if (bytes) {
    const end = readCompleteLines(checkedForNul(bytes.next, job.offset), job.offset, job.startLine, onBatch);
    ended(end, end.endOffset > 0 ? bytes.hash(end.endOffset) : null);
    return;
  }
  withFd(job.path, (fd) => {
    const end = readCompleteLines(
      checkedForNul(fdChunks(fd, job.offset, job.size), job.offset),
      job.offset,
      job.startLine,
      onBatch,
    );
    // The prefix hash of the bytes just read, from the same open file (its pages are still cached).
    ended(end, end.endOffset > 0 ? prefixHash(fd, end.endOffset) : null);
  });
}

/** An error as it crosses threads: its text and its code (ENOENT, EACCES, ...). */
export interface ErrorFields {
  message: string;
  code?: string;
}

/** What of `error` crosses to another thread (see jobError). */
export function errorFields(error: unknown): ErrorFields {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/** The error a failed job is rethrown as on the receiving thread (same text and code in the report). */
export function jobError(fields: ErrorFields): Error {
  const error = new Error(fields.message) as NodeJS.ErrnoException;
  if (fields.code) error.code = fields.code;
  return error;
}
