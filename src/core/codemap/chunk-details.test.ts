// Chunk and render details: long minified lines are cut, docs use the language's comment form,
// every piece of a split symbol names it, and imports are listed once per file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeFile } from './analyze-file.js';
import { renderFileMap, renderSymbol } from './render-map.js';
import { searchManifest } from './search-manifest.js';
import { writeChunks } from './write-chunks.js';
import type { FileMap } from './types.js';

const out = mkdtempSync(join(tmpdir(), 'strata-chunk-details-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function mapOf(path: string, text: string): Promise<{ map: FileMap; read: () => string }> {
  const map = await analyzeFile(path, Buffer.from(text));
  return { map, read: () => text };
}

describe('map chunk on hostile shapes', () => {
  it('cuts a minified one-line file into pieces no longer than --max-chars', async () => {
    const body = Array.from({ length: 3000 }, (_, i) => `function f${i}(a){return a+${i};}`).join('');
    const { map, read } = await mapOf('bundle.min.js', `${body}\n`);
    const manifest = writeChunks(
      [map],
      { outDir: join(out, 'min'), maxChars: 12000, source: 'bundle.min.js' },
      { readSource: read },
    );
    expect(manifest.chunks.length).toBeGreaterThan(5);
    let joined = '';
    for (const c of manifest.chunks) {
      const text = readFileSync(join(out, 'min', c.path), 'utf8');
      expect(text.length).toBeLessThanOrEqual(12000);
      expect(c.chars).toBe(text.length);
      expect(c.start_line).toBe(1);
      joined += text;
    }
    expect(joined).toBe(`${body}\n`);
    expect(manifest.chunks[1]!.start_col).toBe(manifest.chunks[0]!.end_col! + 1);
  });

  it('lists imports once per file and names a split symbol in every piece', async () => {
    const methods = Array.from(
      { length: 40 },
      (_, i) => `    def method_${i}(self):\n        """Do step ${i}."""\n        return ${i}\n`,
    ).join('\n');
    const { map, read } = await mapOf(
      'svc.py',
      `import os\nimport json\n\n\nclass Service:\n    """A service."""\n\n${methods}`,
    );
    const manifest = writeChunks(
      [map],
      { outDir: join(out, 'py'), maxChars: 800, source: 'svc.py' },
      { readSource: read },
    );
    expect(manifest.files[0]!.imports).toEqual(map.imports);
    expect(map.imports.length).toBeGreaterThan(0);
    expect(manifest.chunks.every((c) => !('imports' in c))).toBe(true);
    const pieces = manifest.chunks.filter((c) => c.start_line > 5);
    expect(pieces.length).toBeGreaterThan(2);
    for (const c of pieces) expect(c.spanning?.map((s) => s.name)).toContain('Service');
    const hits = await searchManifest('Service', join(out, 'py', 'manifest.json'));
    expect(hits.length).toBe(manifest.chunks.filter((c) => c.end_line >= 5).length);
  });

  it('shows Python docs with #, not //', async () => {
    const { map, read } = await mapOf('doc.py', 'def greet(name):\n    """Say hello to someone."""\n    return name\n');
    expect(renderFileMap(map, 'standard', read)).toContain('# Say hello to someone.');
    expect(renderFileMap(map, 'standard', read)).not.toContain('//');
    const ts = await mapOf('doc.ts', '/** Say hello. */\nexport function greet(): void {}\n');
    expect(renderFileMap(ts.map, 'standard', ts.read)).toContain('// Say hello.');
    expect(renderSymbol(map, map.symbols[0]!, 'standard', read)).toContain('  # Say hello to someone.');
  });
});
