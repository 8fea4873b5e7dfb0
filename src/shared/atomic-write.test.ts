// Atomic writes: the pieces land in order, and a failure mid-way leaves the old file and no temp file.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeChunksAtomic, writeFileAtomic } from './atomic-write.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeChunksAtomic', () => {
  it('writes strings and bytes in order, past the gathering size', () => {
    dir = mkdtempSync(join(tmpdir(), 'strata-atomic-'));
    const path = join(dir, 'out.txt');
    const big = 'x'.repeat(1 << 20);
    writeChunksAtomic(path, ['a', 'é', big, Buffer.from('-bytes-'), '✓']);
    expect(readFileSync(path, 'utf8')).toBe(`aé${big}-bytes-✓`);
    writeFileAtomic(path, 'small');
    expect(readFileSync(path, 'utf8')).toBe('small');
  });

  it('keeps the old file when the pieces fail mid-way', () => {
    dir = mkdtempSync(join(tmpdir(), 'strata-atomic-'));
    const path = join(dir, 'out.txt');
    writeFileSync(path, 'old');
    function* failing(): Generator<string> {
      yield 'new '.repeat(1 << 19);
      throw new Error('serializer failed');
    }
    expect(() => writeChunksAtomic(path, failing())).toThrow('serializer failed');
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['out.txt']);
  });
});
