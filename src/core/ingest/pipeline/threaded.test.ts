// The ingest pipeline's threads (their modules run from dist/: build first) end without leaving a file
// open or failing when the pipeline is closed while the read-ahead thread is in the middle of a file, whether
// it prefetches the files ahead or not.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LinePipeline, threadsAvailable } from './threaded.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'strata-threads-'));

const openFiles = () => readdirSync('/proc/self/fd').length;

describe('ingest pipeline', () => {
  it('closes while the read-ahead thread holds a file open, leaving no file open', async () => {
    expect(threadsAvailable(), 'the thread modules are built by npm run build').toBe(true);
    const dir = tempDir();
    const line = (n: number) =>
      JSON.stringify({
        type: 'user',
        sessionId: 'pipeline',
        uuid: `u-${n}`,
        timestamp: '2025-06-01T10:00:00.000Z',
        cwd: '/w',
        message: { role: 'user', content: `line ${n} ${'word '.repeat(20_000)}` },
      });
    // 40 MB: more than the worker may run ahead of the writes (16 MB), a batch (8 MB) and the ring (2 MB)
    // together, so the reader is left waiting for room in the middle of a file.
    const jobs = Array.from({ length: 5 }, (_, id) => {
      const path = join(dir, `s${id}.jsonl`);
      const text = `${Array.from({ length: 80 }, (_, n) => line(id * 100 + n)).join('\n')}\n`;
      writeFileSync(path, text);
      return { id, path, agent: 'claude-code', offset: 0, startLine: 0, size: Buffer.byteLength(text) };
    });
    for (const prefetch of ['off', 'on'] as const) {
      const before = openFiles();
      const pipeline = new LinePipeline(jobs, true, prefetch);
      let bytes = 0;
      const end = pipeline.consume(0, (event) => (bytes += event.bytes));
      expect(end.type).toBe('end');
      expect(bytes).toBe(jobs[0]!.size);
      await pipeline.close();
      expect(openFiles()).toBe(before);
    }
  });
});
