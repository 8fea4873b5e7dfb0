import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildContextPack } from './build-pack.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { assertValidPack, CONTEXT_PACK_SCHEMA_URL } from './pack-schema.js';
import { readPack, serializePack, writeContextPack } from './write-pack.js';
import type { ContextPack } from './types.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/real/markdown');
const fixedNow = { now: () => new Date('2025-01-02T03:04:05.000Z') };

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'strata-pack-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function write(rel: string, text: string): void {
  const abs = join(root, 'seg', rel);
  mkdirSync(join(abs, '..'), { recursive: true });
  writeFileSync(abs, text);
  utimesSync(abs, 1_700_000_000, 1_700_000_000);
}

const SKILL = [
  '---',
  'name: demo',
  'description: A demo skill',
  '---',
  '',
  '# Demo',
  '',
  '## Overview',
  '',
  'Short.',
  '',
  '## Core Rules',
  '',
  '1. **Sync First**: validate .env before running.',
  '2. **Test Locally**: run the suite.',
  '',
  '## Notes',
  '',
  '```bash',
  '# install',
  'npm ci',
  '```',
].join('\n');

const idsOf = (pack: ContextPack, file: string): string[] =>
  pack.chunks.filter((c) => c.source_path === file).map((c) => c.id);

describe('context-pack schema', () => {
  it('is a valid JSON Schema 2020-12 document', () => {
    const schema = JSON.parse(readFileSync(CONTEXT_PACK_SCHEMA_URL, 'utf8')) as object;
    const ajv = new Ajv2020({ strict: true });
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('rejects a pack with a missing field or a bad id', () => {
    const pack = {
      schema_version: 1,
      segment: 's',
      created_at: '2025-01-01T00:00:00.000Z',
      generator_version: '0.1.0',
      source_files: [],
      chunking: { method: 'headings+paragraph_fallback+fence_aware', max_chars: 6000 },
      docs: [],
      digest: [],
      index: [],
      chunks: [],
    };
    expect(() => assertValidPack(pack)).not.toThrow();
    expect(() => assertValidPack({ ...pack, docs: undefined })).toThrow(/must have required property 'docs'/);
    expect(() =>
      assertValidPack({ ...pack, digest: [{ doc: 'a', summary: '', source_chunk_ids: ['nocolon'] }] }),
    ).toThrow(/SCHEMA|schema v1/);
  });
});

describe('buildContextPack', () => {
  it('produces a schema-v1 pack with every field (snapshot)', async () => {
    write('skill.md', SKILL);
    write('guide/usage.md', '# Usage\n\nRun `demo --help`.\n');
    write('notes.txt', 'not a doc');
    const { pack } = buildContextPack({ segment: 'seg', segmentDir: join(root, 'seg') }, fixedNow);
    assertValidPack(pack);
    expect(pack.source_files.map((f) => f.path)).toEqual(['guide/usage.md', 'skill.md']);
    expect(pack.docs.map((d) => d.doc)).toEqual(['guide/usage', 'skill']);
    expect(pack.index.map((e) => e.title_path.join(' > '))).toEqual([
      'Usage',
      '',
      'Demo > Overview',
      'Demo > Core Rules',
      'Demo > Notes',
    ]);
    const json = serializePack(pack);
    expect(JSON.parse(json)).toEqual(pack);
    await expect(json).toMatchFileSnapshot('__snapshots__/demo-pack.json');
  });

  it('writes byte-identical output for the same input, apart from created_at', () => {
    cpSync(FIXTURES, join(root, 'seg'), { recursive: true });
    const first = writeContextPack({ repoRoot: root, segment: 'seg' });
    const a = readFileSync(first.paths.packPath, 'utf8');
    rmSync(first.paths.packPath); // no reuse: build from scratch again
    writeContextPack({ repoRoot: root, segment: 'seg' });
    const b = readFileSync(first.paths.packPath, 'utf8');
    const strip = (s: string): string => s.replace(/"created_at": "[^"]+"/, '"created_at": ""');
    expect(strip(b)).toBe(strip(a));
    expect(first.pack.docs.length).toBe(16);
  });

  it('keeps ids stable: editing doc A changes no id in doc B; editing one section changes only that chunk', () => {
    write('a.md', SKILL);
    write('b.md', '# B\n\nbee text\n\n## Second\n\nmore\n');
    const before = buildContextPack({ segment: 'seg', segmentDir: join(root, 'seg') }, fixedNow).pack;
    write('a.md', SKILL.replace('run the suite.', 'run the whole suite.'));
    const after = buildContextPack({ segment: 'seg', segmentDir: join(root, 'seg') }, fixedNow).pack;
    expect(idsOf(after, 'b.md')).toEqual(idsOf(before, 'b.md'));
    const [a0, a1] = [idsOf(before, 'a.md'), idsOf(after, 'a.md')];
    expect(a1).toHaveLength(a0.length);
    const changed = a0.filter((id, i) => a1[i] !== id);
    expect(changed).toHaveLength(1);
    expect(before.chunks.find((c) => c.id === changed[0])?.title_path).toEqual(['Demo', 'Core Rules']);
    // Inserting a new section shifts nothing either.
    write('a.md', SKILL.replace('## Notes', '## Inserted\n\nnew\n\n## Notes'));
    const inserted = buildContextPack({ segment: 'seg', segmentDir: join(root, 'seg') }, fixedNow).pack;
    expect(idsOf(inserted, 'a.md').filter((id) => !a0.includes(id))).toHaveLength(1);
  });

  it('uses the spec id format, 180-character previews and tokenizer estimates', () => {
    write('long.md', '# Long\n\n' + 'alpha beta gamma '.repeat(30));
    const { pack } = buildContextPack({ segment: 'seg', segmentDir: join(root, 'seg') }, fixedNow);
    const entry = pack.index[0];
    expect(entry?.id).toMatch(/^long:[0-9a-f]{10}$/);
    expect(entry?.preview).toHaveLength(181);
    expect(entry?.preview.endsWith('…')).toBe(true);
    expect(entry?.token_est).toBe(Math.ceil((pack.chunks[0]?.text.length ?? 0) / 4));
  });

  it('builds the digest from the top-2 scored chunks, at most 1,200 characters', () => {
    write('skill.md', SKILL);
    write('big.md', '## Architecture\n\n' + 'x '.repeat(2000) + '\n\n## API\n\n' + 'y '.repeat(2000));
    const { pack } = buildContextPack({ segment: 'seg', segmentDir: join(root, 'seg') }, fixedNow);
    const skill = pack.digest.find((d) => d.doc === 'skill');
    const core = pack.index.find((e) => e.title_path.at(-1) === 'Core Rules');
    expect(skill?.source_chunk_ids).toHaveLength(2);
    expect(skill?.source_chunk_ids).toContain(core?.id);
    expect(skill?.summary).toContain('Demo > Core Rules → 1. **Sync First**');
    // "Overview" is short, so it is penalised below Notes (level 2, no keyword).
    expect(skill?.summary).not.toContain('Overview');
    const big = pack.digest.find((d) => d.doc === 'big');
    expect([...(big?.summary ?? '')].length).toBeLessThanOrEqual(1200);
  });

  it('records an empty document with no chunks and no digest entry', () => {
    write('empty.md', '');
    const { pack } = buildContextPack({ segment: 'seg', segmentDir: join(root, 'seg') }, fixedNow);
    expect(pack.docs).toEqual([expect.objectContaining({ doc: 'empty', chunk_count: 0, total_chars: 0 })]);
    expect(pack.digest).toEqual([]);
    assertValidPack(pack);
  });

  it('honours include/exclude globs and never reads _ctx or a nested segment', () => {
    write('docs/a.md', '# A');
    write('docs/drafts/b.md', '# B');
    write('README.markdown', '# R');
    write('_ctx/stale.md', '# stale');
    write('other/_ctx/context_pack.json', '{}');
    write('other/secret.md', '# other segment');
    const seg = join(root, 'seg');
    const files = (include?: string[], exclude?: string[]): string[] =>
      buildContextPack({ segment: 'seg', segmentDir: seg, include, exclude }, fixedNow).pack.source_files.map(
        (f) => f.path,
      );
    expect(files()).toEqual(['docs/a.md', 'docs/drafts/b.md']);
    expect(files(['*.md', '*.markdown'], ['drafts'])).toEqual(['README.markdown', 'docs/a.md']);
    expect(files(['docs/**/*.md'], ['docs/drafts/**'])).toEqual(['docs/a.md']);
  });

  it('reuses unchanged docs by SHA-256 on rebuild', () => {
    write('a.md', SKILL);
    write('b.md', '# B\n\ntext\n');
    const first = writeContextPack({ repoRoot: root, segment: 'seg' });
    expect(first.chunkedDocs).toEqual(['a.md', 'b.md']);
    write('b.md', '# B\n\nchanged\n');
    const second = writeContextPack({ repoRoot: root, segment: 'seg' });
    expect(second.reusedDocs).toEqual(['a.md']);
    expect(second.chunkedDocs).toEqual(['b.md']);
    expect(idsOf(second.pack, 'a.md')).toEqual(idsOf(first.pack, 'a.md'));
    expect(readPack(second.paths.packPath)).toEqual(second.pack);
  });

  it('rebuilds from scratch when the previous pack is damaged', () => {
    write('a.md', SKILL);
    const first = writeContextPack({ repoRoot: root, segment: 'seg' });
    const damaged = JSON.parse(readFileSync(first.paths.packPath, 'utf8')) as ContextPack;
    (damaged.chunks[0] as { text: unknown }).text = 42;
    writeFileSync(first.paths.packPath, JSON.stringify(damaged));
    const second = writeContextPack({ repoRoot: root, segment: 'seg' });
    expect(second.reusedDocs).toEqual([]);
    expect(readPack(second.paths.packPath).chunks).toEqual(first.pack.chunks);
    writeFileSync(first.paths.packPath, 'not json');
    expect(writeContextPack({ repoRoot: root, segment: 'seg' }).chunkedDocs).toEqual(['a.md']);
  });
});
