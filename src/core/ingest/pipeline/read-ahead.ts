// Owns reading line sources ahead of their parsing, on a thread of its own (read-ahead-worker.ts), so
// that the ingest worker, the busier thread of a bulk ingest, does not wait for the disk: a history not
// in the page cache cost that worker ~2.4 s of waiting per GB, in which nothing else ran on its core.
// The bytes go through one shared ring of RING_BYTES (buffers handed over one per chunk were freed late
// and raised peak RSS by ~40 MB), and each file's prefix hashes are computed here, at the offsets where
// its complete lines may end, so that the ingest worker opens no file (unless this thread failed).
import { closeSync, openSync, readSync } from 'node:fs';
import type { AheadReceiver, AheadSender } from './ahead-channel.js';
import { errorFields, jobError, type ErrorFields } from './line-job.js';
import { CHUNK, prefixHash, prefixHashOfBytes, type NextChunk } from './line-reader.js';
import { Prefetcher, type PrefetchMode } from './prefetch.js';

/** What the reader thread needs of a job (a LineJob has these fields). */
export interface ReadJob {
  id: number;
  path: string;
  offset: number;
  size: number;
}

/** The prefix hash at each offset where the complete lines read may end. */
type Hashes = [number, string][];

export type ReadAheadMessage =
  /**
   * Bytes at `start` in the ring; `span` (with any bytes skipped at the ring's end) is freed once they
   * are parsed. The last chunk of a job carries its hashes (a typical file is one chunk, one message).
   */
  | { job: number; start: number; length: number; span: number; hashes?: Hashes }
  | { job: number; hashes: Hashes }
  | ({ job: number; error: true } & ErrorFields);

/**
 * Four chunks: a file of many chunks is read up to three chunks ahead of its parsing, and a chunk that
 * would cross the ring's end (it starts again at 0) skips less than one.
 */
export const RING_BYTES = 4 * CHUNK;
/** Messages that may wait untaken (the ring bounds the bytes). */
export const READ_AHEAD_MESSAGES = 4096;

/** Int32 slot of the ring's control memory: bytes the parsing has freed (a running total, mod 2^32). */
const RELEASED = 0;
/** Int32 slot: bytes handed out (a running total, mod 2^32), set by the reader. */
const ALLOCATED = 1;
/** Int32 slot: the free room the waiting reader wants before it is woken, 0 when it is not waiting. */
const WANT = 2;

/** The shared memory of one read-ahead ring: give it to both threads. */
export function ringMemory(): { ring: SharedArrayBuffer; control: SharedArrayBuffer } {
  return { ring: new SharedArrayBuffer(RING_BYTES), control: new SharedArrayBuffer(12) };
}

/** The reader thread's side of the ring: where the next chunk goes, once the parsing has freed room for it. */
class RingWriter {
  private readonly control: Int32Array;
  private head = 0;
  /** Bytes handed out, a running total mod 2^32 like RELEASED. */
  private allocated = 0;

  constructor(
    readonly ring: SharedArrayBuffer,
    control: SharedArrayBuffer,
  ) {
    this.control = new Int32Array(control);
  }

  /**
   * Room for `length` contiguous bytes; `span` counts the bytes skipped at the end of the ring too. When
   * it must wait, it waits for half the ring to be free: woken once per file instead, it preempted the
   * two busy threads thousands of times per GB. `turning`: wait without blocking the thread's event
   * loop (prefetches end there).
   */
  async claim(length: number, turning: boolean): Promise<{ start: number; span: number }> {
    const start = this.head + length <= RING_BYTES ? this.head : 0;
    const span = (start === this.head ? 0 : RING_BYTES - this.head) + length;
    let need = span;
    for (;;) {
      // Waiting on the value read before WANT is set: a release in between ends the wait at once.
      const released = Atomics.load(this.control, RELEASED);
      if (RING_BYTES - ((this.allocated - released) | 0) >= need) break;
      need = Math.max(span, RING_BYTES / 2);
      Atomics.store(this.control, WANT, need);
      if (!turning) Atomics.wait(this.control, RELEASED, released, 1000);
      else {
        const waited = Atomics.waitAsync(this.control, RELEASED, released, 1000);
        if (waited.async) await waited.value;
      }
    }
    Atomics.store(this.control, WANT, 0);
    this.allocated = (this.allocated + span) | 0;
    Atomics.store(this.control, ALLOCATED, this.allocated);
    this.head = start + length;
    return { start, span };
  }
}

/**
 * Reads every job's bytes from its offset to its planned size, in order, and sends them, then the prefix
 * hashes at the offsets where the complete lines may end: the job's offset (no complete line), after
 * its last newline, and after the last byte read (a last line without its newline). An error (the file
 * vanished or is unreadable) is sent instead, with the text and code reading it inline would give.
 * Once reads come from a slow disk, the files ahead are prefetched (see prefetch.ts); resolves to how
 * many were.
 */
export async function readAheadJobs(
  jobs: ReadJob[],
  sender: AheadSender,
  ring: SharedArrayBuffer,
  control: SharedArrayBuffer,
  prefetch: PrefetchMode = 'auto',
): Promise<{ prefetched: number }> {
  const writer = new RingWriter(ring, control);
  const prefetcher = new Prefetcher(jobs, prefetch);
  // A pending Atomics.waitAsync does not keep a thread's event loop alive: without this the thread would
  // end in the middle of a wait for room.
  const keepAlive = setInterval(() => {}, 60_000);
  try {
    for (const [index, job] of jobs.entries()) {
      prefetcher.reach(index);
      try {
        await readJob(job, sender, writer, prefetcher);
      } catch (error) {
        sender.send({ job: job.id, error: true, ...errorFields(error) }, 1);
      }
      // Prefetches that ended queue the next ones from this thread's event loop.
      if (prefetcher.active) await new Promise(setImmediate);
    }
    await prefetcher.idle();
  } finally {
    clearInterval(keepAlive);
  }
  return { prefetched: prefetcher.files };
}

async function readJob(job: ReadJob, sender: AheadSender, writer: RingWriter, prefetcher: Prefetcher): Promise<void> {
  // A file open when the thread is terminated is closed by Node (Worker's trackUnmanagedFds).
  const fd = openSync(job.path, 'r');
  /** The chunk read last, sent with the hashes once the file is read. */
  let last: { start: number; length: number; span: number } | undefined;
  try {
    let position = job.offset;
    let lineEnd = job.offset;
    while (position < job.size) {
      if (last) sender.send({ job: job.id, ...last }, 1);
      last = undefined;
      const want = Math.min(CHUNK, job.size - position);
      const { start, span } = await writer.claim(want, prefetcher.active);
      last = { start, length: 0, span };
      const started = performance.now();
      last.length = Math.max(0, readSync(fd, new Uint8Array(writer.ring, start, want), 0, want, position));
      prefetcher.noteRead(performance.now() - started, last.length);
      if (last.length === 0) break;
      const nl = Buffer.from(writer.ring, start, last.length).lastIndexOf(10);
      if (nl !== -1) lineEnd = position + nl + 1;
      position += last.length;
    }
    // A file read whole in one chunk is hashed from the ring rather than read again.
    const whole =
      job.offset === 0 && last !== undefined && last.length === position
        ? Buffer.from(writer.ring, last.start, last.length)
        : undefined;
    const ends = [...new Set([job.offset, lineEnd, position])].filter((end) => end > 0);
    const hashes: Hashes = ends.map((end) => [end, whole ? prefixHashOfBytes(whole, end) : prefixHash(fd, end)]);
    sender.send(last ? { job: job.id, ...last, hashes } : { job: job.id, hashes }, 1);
  } catch (error) {
    // The claimed room goes back to the ring (an empty chunk), then the error follows.
    if (last) sender.send({ job: job.id, start: last.start, length: 0, span: last.span }, 1);
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** The ingest worker's side of the ring: the chunks of each job, in order, freed as they are parsed. */
export class ReadAheadInbox {
  private readonly control: Int32Array;
  /** Span of the chunk handed out last: freed when the next one is asked for. */
  private held = 0;

  constructor(
    private readonly receiver: AheadReceiver<ReadAheadMessage>,
    private readonly ring: SharedArrayBuffer,
    control: SharedArrayBuffer,
  ) {
    this.control = new Int32Array(control);
  }

  private release(span: number): void {
    if (span === 0) return;
    const released = (Atomics.add(this.control, RELEASED, span) + span) | 0;
    const want = Atomics.load(this.control, WANT);
    if (want > 0 && RING_BYTES - ((Atomics.load(this.control, ALLOCATED) - released) | 0) >= want)
      Atomics.notify(this.control, RELEASED);
  }

  /**
   * The chunks of job `id` as the reader thread sent them (each valid until the next call); messages
   * of earlier jobs (one whose parsing failed half-way) are skipped. A read error is thrown as the
   * inline read would have thrown it. Once the chunks are exhausted, `hash(end)` gives the prefix hash
   * the reader computed at `end` (a missing one is a bug, thrown); `received()` tells whether any bytes
   * of the job were handed out.
   */
  chunks(id: number): { next: NextChunk; hash: (end: number) => string; received: () => boolean } {
    let hashes: Map<number, string> | undefined;
    let received = false;
    const next: NextChunk = () => {
      this.release(this.held);
      this.held = 0;
      if (hashes) return undefined;
      for (;;) {
        const message = this.receiver.receive();
        if (message.job > id) throw new Error(`read-ahead: job ${message.job} arrived before job ${id} ended`);
        if ('span' in message && (message.job < id || message.length === 0)) this.release(message.span);
        if (message.job < id) continue;
        if ('hashes' in message && message.hashes) hashes = new Map(message.hashes);
        if ('span' in message && message.length > 0) {
          received = true;
          this.held = message.span;
          return Buffer.from(this.ring, message.start, message.length);
        }
        if ('error' in message) {
          hashes = new Map();
          throw jobError(message);
        }
        if (hashes) return undefined;
      }
    };
    const hash = (end: number) => {
      const found = hashes?.get(end);
      if (found === undefined) throw new Error(`read-ahead: no prefix hash of job ${id} at offset ${end}`);
      return found;
    };
    return { next, hash, received: () => received };
  }
}
