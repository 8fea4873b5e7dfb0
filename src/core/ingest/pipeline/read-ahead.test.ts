// The read-ahead thread's side and the ingest worker's side of the ring, run one after the other on a
// real MessageChannel and shared memory: the bytes handed out are the file's, the prefix hashes are
// the ones read from the file, an unreadable file fails as opening it inline fails, and every byte
// claimed in the ring is given back. The line splitting over chunks is checked with chunks of a few bytes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { AheadReceiver, AheadSender, channelCounters } from './ahead-channel.js';
import { prefixHash, readCompleteLines, type NextChunk } from './line-reader.js';
import {
  READ_AHEAD_MESSAGES,
  ReadAheadInbox,
  readAheadJobs,
  ringMemory,
  type ReadAheadMessage,
  type ReadJob,
} from './read-ahead.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-read-ahead-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const line = (n: number, width: number) => `{"n":${n},"text":"${'x'.repeat(width)}"}`;

function hashOnDisk(path: string, end: number): string {
  const fd = openSync(path, 'r');
  try {
    return prefixHash(fd, end);
  } finally {
    closeSync(fd);
  }
}

describe('read-ahead', () => {
  it('hands out each job’s bytes and prefix hashes, fails an unreadable file as opening does, frees it', async () => {
    const whole = join(dir, 'whole.jsonl');
    const noNewline = join(dir, 'no-newline.jsonl');
    const partial = join(dir, 'partial.jsonl');
    // Each more than 68 KB, so that a prefix hash covers a head and a tail.
    const lines = Array.from({ length: 40 }, (_, n) => line(n, 2000 + n * 37));
    writeFileSync(whole, `${lines.join('\n')}\n`);
    writeFileSync(noNewline, lines.join('\n'));
    writeFileSync(partial, `${lines.join('\n')}\n{"n":99,"te`);
    const size = (path: string) =>
      Buffer.byteLength(`${lines.join('\n')}\n`) + (path === noNewline ? -1 : path === partial ? 11 : 0);
    const jobs: ReadJob[] = [
      { id: 0, path: whole, offset: 0, size: size(whole) },
      { id: 1, path: noNewline, offset: 0, size: size(noNewline) },
      { id: 2, path: join(dir, 'gone.jsonl'), offset: 0, size: 100 },
      { id: 3, path: partial, offset: 0, size: size(partial) },
      // An append: the bytes after an earlier run's offset, hashed from the file (not one chunk from 0).
      { id: 4, path: whole, offset: Buffer.byteLength(`${lines.slice(0, 10).join('\n')}\n`), size: size(whole) },
    ];
    const { port1, port2 } = new MessageChannel();
    const shared = channelCounters();
    const { ring, control } = ringMemory();
    // The files fit in the ring together, so the reader runs to the end before anything is parsed.
    await readAheadJobs(jobs, new AheadSender(port1, shared, READ_AHEAD_MESSAGES), ring, control);
    const inbox = new ReadAheadInbox(
      new AheadReceiver<ReadAheadMessage>(port2, shared, () => 1, { startMs: 1000, stallMs: 1000 }),
      ring,
      control,
    );

    const results = jobs.map((job) => {
      const { next, hash } = inbox.chunks(job.id);
      const chunks: Buffer[] = [];
      try {
        for (let chunk = next(); chunk !== undefined; chunk = next()) chunks.push(Buffer.from(chunk));
      } catch (error) {
        return { error: error as NodeJS.ErrnoException };
      }
      return { bytes: Buffer.concat(chunks), hash };
    });
    for (const job of [jobs[0]!, jobs[1]!, jobs[3]!, jobs[4]!]) {
      const result = results[job.id]!;
      expect(result.bytes!.equals(readFileSync(job.path).subarray(job.offset))).toBe(true);
    }
    // Where the complete lines may end: after the last newline, after the last byte (complete JSON).
    const lastNewline = Buffer.byteLength(`${lines.join('\n')}\n`);
    expect(results[0]!.hash!(lastNewline)).toBe(hashOnDisk(whole, lastNewline));
    expect(results[1]!.hash!(size(noNewline))).toBe(hashOnDisk(noNewline, size(noNewline)));
    expect(results[1]!.hash!(lastNewline - Buffer.byteLength(`${lines.at(-1)}\n`))).toBe(
      hashOnDisk(noNewline, lastNewline - Buffer.byteLength(`${lines.at(-1)}\n`)),
    );
    expect(results[3]!.hash!(lastNewline)).toBe(hashOnDisk(partial, lastNewline));
    expect(results[4]!.hash!(jobs[4]!.offset)).toBe(hashOnDisk(whole, jobs[4]!.offset));
    expect(() => results[0]!.hash!(1234)).toThrow(/no prefix hash/);

    let inlineError: NodeJS.ErrnoException | undefined;
    try {
      openSync(jobs[2]!.path, 'r');
    } catch (error) {
      inlineError = error as NodeJS.ErrnoException;
    }
    expect(results[2]!.error?.message).toBe(inlineError!.message);
    expect(results[2]!.error?.code).toBe('ENOENT');

    // Every byte handed out was given back (the last chunk when the next was asked for).
    const read = jobs.filter((job) => job.id !== 2).reduce((sum, job) => sum + job.size - job.offset, 0);
    expect(new Int32Array(control)[0]).toBe(read);
  });

  it('prefetches the files ahead when told to, hands out the same bytes, and leaves no file open', async () => {
    const jobs: ReadJob[] = Array.from({ length: 30 }, (_, id) => {
      const path = join(dir, `f${id}.jsonl`);
      writeFileSync(path, `${Array.from({ length: 5 + id }, (_, n) => line(n, 100 * id)).join('\n')}\n`);
      return { id, path, offset: id % 3 === 0 ? 0 : 50, size: readFileSync(path).length };
    });
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const run = async (prefetch: 'on' | 'off') => {
      const { port1, port2 } = new MessageChannel();
      const shared = channelCounters();
      const { ring, control } = ringMemory();
      const { prefetched } = await readAheadJobs(
        jobs,
        new AheadSender(port1, shared, READ_AHEAD_MESSAGES),
        ring,
        control,
        prefetch,
      );
      const inbox = new ReadAheadInbox(
        new AheadReceiver<ReadAheadMessage>(port2, shared, () => 1, { startMs: 1000, stallMs: 1000 }),
        ring,
        control,
      );
      const bytes = jobs.map((job) => {
        const { next } = inbox.chunks(job.id);
        const chunks: Buffer[] = [];
        for (let chunk = next(); chunk !== undefined; chunk = next()) chunks.push(Buffer.from(chunk));
        return Buffer.concat(chunks);
      });
      port1.close();
      return { prefetched, bytes };
    };
    const on = await run('on');
    const off = await run('off');
    // At most every job but the first (the reader is at it when prefetching starts); one the reader
    // reaches before its prefetch could start is not prefetched.
    expect(on.prefetched).toBeGreaterThan(0);
    expect(on.prefetched).toBeLessThanOrEqual(jobs.length - 1);
    expect(off.prefetched).toBe(0);
    jobs.forEach((job, i) => expect(on.bytes[i]!.equals(readFileSync(job.path).subarray(job.offset))).toBe(true));
    expect(Buffer.concat(on.bytes).equals(Buffer.concat(off.bytes))).toBe(true);
    expect(openFiles()).toBe(before);
  });

  it('splits lines the same whatever the chunks; a line over many chunks survives the reused buffer', () => {
    const text = [line(1, 10), line(2, 50_000), '', line(3, 5), `${line(4, 3)}\r`, line(5, 100_000)].join('\n');
    const bytes = Buffer.from(text);
    const chunked = (size: number): NextChunk => {
      // One buffer reused for every chunk, as the inline reader and the ring reuse theirs.
      const reused = Buffer.alloc(size);
      let position = 0;
      return () => {
        if (position >= bytes.length) return undefined;
        const n = bytes.copy(reused, 0, position, Math.min(bytes.length, position + size));
        position += n;
        return reused.subarray(0, n);
      };
    };
    const collect = (next: NextChunk) => {
      const lines: { text: string; line: number }[] = [];
      const end = readCompleteLines(next, 0, 0, (batch) => lines.push(...batch.lines));
      return { lines, end };
    };
    const once = collect(chunked(bytes.length));
    expect(once.lines.map((l) => l.line)).toEqual([1, 2, 4, 5, 6]);
    expect(once.lines[3]!.text).toBe(line(4, 3));
    // The last line has no newline but is complete JSON: it is read, to the last byte.
    expect(once.end).toEqual({ endOffset: bytes.length, endLine: 6 });
    for (const size of [1, 7, 4096, 65_537]) expect(collect(chunked(size))).toEqual(once);
  });
});
