// Code maps leave strata like packs do: a secret in a source file is never printed by a map, a symbol
// view or a chunk, at any detail level, and only the secret is replaced.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCodeMapper } from './code-mapper.js';
import { renderFileMap, renderView } from './render-map.js';
import { DETAIL_LEVELS, type FileMap } from './types.js';
import { writeChunks } from './write-chunks.js';

// Built at run time, so this file itself holds no secret (other tests chunk this folder verbatim).
const TOKEN = ['ghp', '1234567890abcdefghijklmnopqrstuvwxyzAB'].join('_');
const root = mkdtempSync(join(tmpdir(), 'strata-map-secret-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, 'src'));
writeFileSync(
  join(root, 'src/config.ts'),
  [
    '/** Token used by the client. */',
    `export const GITHUB_TOKEN = "${TOKEN}";`,
    'export function connect(url: string): string {',
    `  return url + "?token=${TOKEN}";`,
    '}',
    '',
  ].join('\n'),
);
const read = (m: FileMap): string => readFileSync(join(root, m.path), 'utf8');

async function maps(): Promise<FileMap[]> {
  const mapper = createCodeMapper({ cache: null });
  const out = await mapper.mapPaths(['src'], root);
  mapper.close();
  return out;
}

describe('code map redaction', () => {
  it('never prints a secret in a rendered map, at any level', async () => {
    const [map] = await maps();
    for (const level of DETAIL_LEVELS) {
      const text = renderFileMap(map!, level, read);
      expect(text, level).not.toContain(TOKEN);
    }
    const full = renderFileMap(map!, 'full', read);
    expect(full).toContain('export const GITHUB_TOKEN = "[REDACTED:');
    expect(full).toContain('export function connect(url: string): string {');
  });

  it('never prints a secret in a symbol view', async () => {
    const view = renderView(['GITHUB_TOKEN', 'connect'], 'full', await maps(), read);
    expect(view.found).toHaveLength(2);
    expect(view.text).not.toContain(TOKEN);
  });

  it('never writes a secret into a chunk or the manifest', async () => {
    const outDir = join(root, 'chunks-out');
    const manifest = writeChunks(await maps(), { outDir, maxChars: 4000, source: 'src' }, { readSource: read });
    expect(JSON.stringify(manifest)).not.toContain(TOKEN);
    const texts = readdirSync(join(outDir, 'chunks')).map((f) => readFileSync(join(outDir, 'chunks', f), 'utf8'));
    expect(texts.join('')).toContain('[REDACTED:');
    expect(texts.join('')).not.toContain(TOKEN);
  });
});
