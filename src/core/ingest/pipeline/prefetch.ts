// Owns reading files into the page cache ahead of the read-ahead thread when they come from a slow
// disk. That thread reads one file at a time, so on a disk that takes milliseconds per request (a
// network or cloud volume, or this VM's disk once the host has dropped it from its own cache: ~5 ms
// per file) a 1 GB history of 3,300 files waited ~15 s, and the ingest ran at 37 MB/s instead of 75.
// Read concurrently through libuv's pool, the requests overlap. From the page cache nothing is
// prefetched: it would only copy every byte once more.
import { close, open, read } from 'node:fs';

/** A file to prefetch: the bytes from `offset` to `size` are the ones the reader will read. */
export interface PrefetchJob {
  path: string;
  offset: number;
  size: number;
}

/** A read slower than this came from the disk: from the page cache 512 KB take ~0.1 ms. */
const SLOW_READ_MS = 2;
/** Of the last READ_WINDOW reads, SLOW_READS slow ones turn prefetching on (one alone may be the thread preempted). */
const READ_WINDOW = 16;
const SLOW_READS = 8;
/**
 * Files read ahead at once. libuv's pool reads as many at a time as it has threads (16 under the
 * `strata` command, else 4); the queued ones start as soon as one ends, while the reader thread is busy
 * and cannot queue more.
 */
const PREFETCH_FILES = 16;
/** Bytes read of each file: the kernel reads the rest of a larger file ahead once the reader reads it in order. */
const PREFETCH_BYTES = 1024 * 1024;
/** How far ahead of the reader's position files are prefetched: well within what the page cache keeps. */
const PREFETCH_AHEAD_BYTES = 32 * 1024 * 1024;

/** `auto`: prefetch once the reader's reads show a slow disk; `on`, `off`: always, never (tests, debugging). */
export type PrefetchMode = 'auto' | 'on' | 'off';

export class Prefetcher {
  /** Whether prefetching is on: once on, it stays on for the rest of the run. */
  active: boolean;
  /** Files prefetched so far. */
  files = 0;
  /** Outcome (1 = slow) of the reader's last reads, as a ring of READ_WINDOW. */
  private readonly outcomes = new Uint8Array(READ_WINDOW);
  private reads = 0;
  private slow = 0;
  /** Bytes the reader reads before job i (cumulative[jobs.length] is the total). */
  private readonly cumulative: Float64Array;
  /** Index of the job the reader is at, where it is (bytes before it in all jobs), and the next job to prefetch. */
  private at = 0;
  private position = 0;
  private next = 0;
  private inFlight = 0;
  private onIdle: (() => void) | undefined;
  /** Where the reads go: nobody reads it back, so every read shares it. */
  private scratch: Buffer | undefined;

  /** The files in flight when the thread is terminated are closed by Node (Worker's trackUnmanagedFds). */
  constructor(
    private readonly jobs: readonly PrefetchJob[],
    private readonly mode: PrefetchMode = 'auto',
  ) {
    this.active = mode === 'on';
    this.cumulative = new Float64Array(jobs.length + 1);
    jobs.forEach((job, i) => (this.cumulative[i + 1] = this.cumulative[i]! + Math.max(0, job.size - job.offset)));
  }

  /** Records one of the reader's own reads (`bytes` in `ms`); enough slow ones turn prefetching on. */
  noteRead(ms: number, bytes: number): void {
    this.position += bytes;
    if (this.active) this.pump();
    if (this.active || this.mode !== 'auto') return;
    const slot = this.reads++ % READ_WINDOW;
    this.slow -= this.outcomes[slot]!;
    this.outcomes[slot] = ms > SLOW_READ_MS ? 1 : 0;
    this.slow += this.outcomes[slot]!;
    if (this.slow >= SLOW_READS) {
      this.active = true;
      this.pump();
    }
  }

  /** The reader starts reading job `index`: files further ahead may be prefetched. */
  reach(index: number): void {
    this.at = index;
    this.position = this.cumulative[index]!;
    if (this.active) this.pump();
  }

  /** Resolves once no prefetch is in flight (their descriptors are closed). */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => (this.onIdle = resolve));
  }

  private pump(): void {
    while (this.inFlight < PREFETCH_FILES && this.next < this.jobs.length) {
      // A job the reader has started is read already; the reader's own job is not worth a second read.
      if (this.next <= this.at) {
        this.next = this.at + 1;
        continue;
      }
      if (this.cumulative[this.next]! - this.position > PREFETCH_AHEAD_BYTES) return;
      this.start(this.jobs[this.next++]!);
    }
  }

  /** Opens and reads on libuv's pool: on a slow disk an open may wait for the disk too. */
  private start(job: PrefetchJob): void {
    const length = Math.min(PREFETCH_BYTES, job.size - job.offset);
    if (length <= 0) return;
    this.inFlight++;
    this.files++;
    const done = () => {
      this.inFlight--;
      this.pump();
      if (this.inFlight === 0) this.onIdle?.();
    };
    // Errors are the reader's to report, when it reads the file itself.
    open(job.path, 'r', (openError, fd) => {
      if (openError) return done();
      this.scratch ??= Buffer.allocUnsafe(PREFETCH_BYTES);
      read(fd, this.scratch, 0, length, job.offset, () => close(fd, done));
    });
  }
}
