// AC 6 (IndexSerializer): the written index validates against the shipped JSON Schema and against the
// spec's own schema (extracted from the spec); invalid indexes are refused on write and on read; a failed
// write (injected failure, read-only folder, or a process killed mid-write) leaves the previous index
// byte-identical.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { generateHistoryIndex, HISTORY_INDEX_SCHEMA_URL, IndexSerializer, type HistoryIndex } from './index.js';
import { REPO, tempDir } from '../../../test/support/paths.js';
import {
  countingRunner,
  PUFFIN_FIXTURES,
  samplePrompts,
  writeHistory,
} from '../../../test/support/history-index-fixtures.js';

function specSchema(): object {
  const spec = readFileSync(resolve(REPO, '../shared/spec/history-index-generator.md'), 'utf8');
  const section = spec.slice(spec.indexOf('## JSON Schema'));
  const block = /```json\n([\s\S]*?)\n```/.exec(section)![1]!;
  return JSON.parse(block) as object;
}

const freshAjv = () => new Ajv2020({ strict: true, allErrors: true, formats: { 'date-time': true } });

const generated = new Map<string, Promise<{ index: HistoryIndex; path: string }>>();

/** The index of `fixture`, generated once per file, as a copy of its own each call (tests change it). */
async function indexOf(fixture: string): Promise<{ index: HistoryIndex; path: string }> {
  let once = generated.get(fixture);
  if (!once) {
    const path = join(tempDir(), 'i.json');
    once = generateHistoryIndex({
      source: { kind: 'puffin-file', path: fixture },
      outputPath: path,
      runner: countingRunner().runner(),
    }).then(({ index }) => ({ index, path }));
    generated.set(fixture, once);
  }
  const { index, path } = await once;
  const copy = join(tempDir(), 'i.json');
  copyFileSync(path, copy);
  return { index: structuredClone(index), path: copy };
}

describe('IndexSerializer', () => {
  it('writes indexes that validate against the shipped schema and the spec schema (independent ajv)', async () => {
    const shipped = freshAjv().compile(JSON.parse(readFileSync(HISTORY_INDEX_SCHEMA_URL, 'utf8')));
    const spec = freshAjv().compile(specSchema());
    for (const fixture of PUFFIN_FIXTURES) {
      const { path } = await indexOf(fixture);
      const written = JSON.parse(readFileSync(path, 'utf8'));
      expect(shipped(written), JSON.stringify(shipped.errors)).toBe(true);
      expect(spec(written), JSON.stringify(spec.errors)).toBe(true);
      expect(Number.isNaN(Date.parse(written.generatedAt))).toBe(false);
      expect(IndexSerializer.deserialize(readFileSync(path, 'utf8'))).toEqual(written);
      expect(await IndexSerializer.readIndex(path)).toEqual(written);
    }
  });

  it('validate() reports schema violations; writeIndex refuses them and leaves the file untouched', async () => {
    const { index, path } = await indexOf(PUFFIN_FIXTURES[0]!);
    const before = readFileSync(path);
    const bad = structuredClone(index);
    bad.segments[0]!.importanceScore = 2;
    bad.segments[0]!.summary = 'x'.repeat(1001);
    (bad.markers as unknown[]).push({ type: 'bug', content: 'x', promptId: 'p', sourceField: 'elsewhere' });
    delete (bad as Partial<HistoryIndex>).topicIndex;
    const result = IndexSerializer.validate(bad);
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/topicIndex/);
    expect(result.errors.join('\n')).toMatch(/\/segments\/0\/importanceScore must be <= 1/);
    expect(result.errors.join('\n')).toMatch(/\/segments\/0\/summary must NOT have more than 1000 characters/);
    await expect(IndexSerializer.writeIndex(bad, path)).rejects.toThrow(/does not match history-index.schema.json/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('readIndex: null when absent, SCHEMA error for broken JSON, wrong shape or another major version', async () => {
    const dir = tempDir();
    expect(await IndexSerializer.readIndex(join(dir, 'none.json'))).toBeNull();
    writeFileSync(join(dir, 'broken.json'), '{"version": "1.0.0", ');
    await expect(IndexSerializer.readIndex(join(dir, 'broken.json'))).rejects.toMatchObject({ code: 'SCHEMA' });
    writeFileSync(join(dir, 'shape.json'), '{"version": "1.0.0"}');
    await expect(IndexSerializer.readIndex(join(dir, 'shape.json'))).rejects.toThrow(/must have required property/);
    const { index } = await indexOf(PUFFIN_FIXTURES[0]!);
    writeFileSync(join(dir, 'v2.json'), JSON.stringify({ ...index, version: '2.0.0' }));
    await expect(IndexSerializer.readIndex(join(dir, 'v2.json'))).rejects.toThrow(/index version 2\.0\.0/);
  });

  it('an injected write failure fails the run with IO and leaves the previous index byte-identical', async () => {
    const dir = tempDir();
    const history = writeHistory(join(dir, 'history.json'), { main: samplePrompts(5, 2) });
    const out = join(dir, 'history.index.json');
    await generateHistoryIndex({
      source: { kind: 'puffin-file', path: history },
      outputPath: out,
      runner: countingRunner().runner(),
    });
    const before = readFileSync(out);
    writeHistory(history, { main: samplePrompts(6, 2) });
    const failingWrite = (path: string, data: string) => {
      writeFileSync(`${path}.partial.tmp`, data.slice(0, 100));
      throw Object.assign(new Error('read-only file system'), { code: 'EROFS' });
    };
    await expect(
      generateHistoryIndex(
        { source: { kind: 'puffin-file', path: history }, outputPath: out, runner: countingRunner().runner() },
        { writeFile: failingWrite },
      ),
    ).rejects.toMatchObject({
      code: 'IO',
      message: expect.stringMatching(/EROFS: read-only file system; the previous index \(if any\) was left untouched/),
    });
    expect(readFileSync(out).equals(before)).toBe(true);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it.skipIf(process.getuid?.() === 0)(
    'a read-only output folder fails the real atomic write and keeps the previous index',
    async () => {
      const dir = tempDir();
      const history = writeHistory(join(dir, 'history.json'), { main: samplePrompts(3, 2) });
      const outDir = join(dir, 'out');
      const out = join(outDir, 'i.json');
      await generateHistoryIndex({
        source: { kind: 'puffin-file', path: history },
        outputPath: out,
        runner: countingRunner().runner(),
        lockTimeoutMs: 100,
      });
      const before = readFileSync(out);
      writeHistory(history, { main: samplePrompts(4, 2) });
      chmodSync(outDir, 0o555);
      try {
        await expect(
          generateHistoryIndex(
            { source: { kind: 'puffin-file', path: history }, outputPath: out, runner: countingRunner().runner() },
            { acquireLock: () => ({ path: '', release() {} }) },
          ),
        ).rejects.toMatchObject({ code: 'IO' });
      } finally {
        chmodSync(outDir, 0o755);
      }
      expect(readFileSync(out).equals(before)).toBe(true);
    },
  );

  it('a generator killed (SIGKILL) in the middle of writing leaves the previous index byte-identical', async () => {
    const dir = tempDir();
    const history = writeHistory(join(dir, 'history.json'), { main: samplePrompts(5, 2) });
    const out = join(dir, 'history.index.json');
    await generateHistoryIndex({
      source: { kind: 'puffin-file', path: history },
      outputPath: out,
      runner: countingRunner().runner(),
    });
    const before = readFileSync(out);
    writeHistory(history, { main: samplePrompts(7, 2) });
    const script =
      `
      import { openSync, writeSync } from 'node:fs';
      const { generateHistoryIndex } = await import(${JSON.stringify(join(REPO, 'dist/core/history-index/index.js'))});
      const { LlmRunner, createExtractiveProvider } = await ` +
      `import(${JSON.stringify(join(REPO, 'dist/core/llm/index.js'))});
      const slowWrite = (path, data) => {
        const fd = openSync(path + '.' + process.pid + '.tmp', 'w');
        writeSync(fd, data.slice(0, data.length >> 1));
        process.stdout.write('half-written\\n');
        for (;;) {}
      };
      await generateHistoryIndex({ source: { kind: 'puffin-file', path: ${JSON.stringify(history)} }, outputPath: ` +
      `${JSON.stringify(out)}, runner: new LlmRunner({ provider: createExtractiveProvider() }) }, { writeFile: ` +
      `slowWrite });
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    await new Promise<void>((resolveWait, reject) => {
      child.stdout.on('data', (d) => String(d).includes('half-written') && resolveWait());
      child.on('exit', () => reject(new Error(`child exited early: ${stderr}`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    expect(readFileSync(out).equals(before)).toBe(true);
    // The next run takes over the dead holder's lock and completes.
    const next = await generateHistoryIndex({
      source: { kind: 'puffin-file', path: history },
      outputPath: out,
      runner: countingRunner().runner(),
      lockTimeoutMs: 2000,
    });
    expect(next.written).toBe(true);
    expect(next.index.statistics.totalPrompts).toBe(14);
  });
});
