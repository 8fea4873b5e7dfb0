// When prefetching turns on: the read-ahead thread's reads are timed, and only a run of slow ones (a
// slow disk, not one read the thread was preempted in) turns it on. Files are prefetched ahead of the
// reader, no further than the byte bound, and the reader's own job is not.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Prefetcher } from './prefetch.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-prefetch-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function jobs(count: number, size: number) {
  return Array.from({ length: count }, (_, i) => {
    const path = join(dir, `f${i}.jsonl`);
    writeFileSync(path, 'x'.repeat(Math.min(size, 1000)));
    return { path, offset: 0, size };
  });
}

describe('prefetcher', () => {
  it('turns on after 8 slow reads among the last 16, not for scattered slow ones', async () => {
    const scattered = new Prefetcher(jobs(40, 1000));
    for (let i = 0; i < 200; i++) scattered.noteRead(i % 3 === 0 ? 50 : 0.1, 1000);
    // One read in three slow: at most 6 of any 16.
    expect(scattered.active).toBe(false);
    expect(scattered.files).toBe(0);

    const slow = new Prefetcher(jobs(40, 1000));
    for (let i = 0; i < 7; i++) slow.noteRead(5, 1000);
    expect(slow.active).toBe(false);
    slow.noteRead(5, 1000);
    expect(slow.active).toBe(true);
    // 16 files in flight at once, starting after the reader's own job.
    expect(slow.files).toBe(16);
    await slow.idle();
    // Each one that ended made room for the next, up to the last job.
    expect(slow.files).toBe(39);
  });

  it('stays within 32 MB of the reader, and never goes back to a job the reader has passed', async () => {
    const big = new Prefetcher(jobs(10, 10 * 1024 * 1024), 'on');
    big.reach(0);
    await big.idle();
    // Jobs 1-3 start within 32 MB of the reader's position (the start of job 0); job 4 starts at 40 MB.
    expect(big.files).toBe(3);
    big.noteRead(0, 9 * 1024 * 1024);
    await big.idle();
    expect(big.files).toBe(4);
    big.reach(8);
    await big.idle();
    // Jobs 5-7 are passed: only job 9 is left.
    expect(big.files).toBe(5);

    const off = new Prefetcher(jobs(10, 1000), 'off');
    for (let i = 0; i < 32; i++) off.noteRead(50, 1000);
    off.reach(1);
    expect(off.files).toBe(0);
  });
});
