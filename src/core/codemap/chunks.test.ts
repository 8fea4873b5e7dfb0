// Symbol-aware chunking: boundaries between top-level symbols, spanning splits, manifest ↔ chunk files, manifest
// search.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCodeMapper } from './code-mapper.js';
import { planChunks } from './chunk-plan.js';
import { writeChunks, INDEX_FILE } from './write-chunks.js';
import { searchManifest } from './search-manifest.js';
import type { ChunkManifest, FileMap } from './types.js';

const out = mkdtempSync(join(tmpdir(), 'strata-chunks-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const repoRoot = process.cwd();
const read = (m: FileMap): string => readFileSync(join(repoRoot, m.path), 'utf8');

async function mapTree(paths: string[]): Promise<FileMap[]> {
  const mapper = createCodeMapper({ cache: null });
  const maps = await mapper.mapPaths(paths, repoRoot);
  mapper.close();
  return maps;
}

function lineLengths(text: string): number[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => l.length + 1);
}

/** Checks the chunking invariants for one file. */
function checkInvariants(map: FileMap, text: string, maxChars: number): void {
  const lengths = lineLengths(text);
  const chunks = planChunks(lengths, map.symbols, maxChars);
  // Contiguous cover of every line, no overlap.
  let next = 1;
  for (const c of chunks) {
    expect(c.startLine, map.path).toBe(next);
    expect(c.endLine).toBeGreaterThanOrEqual(c.startLine);
    next = c.endLine + 1;
    const size = lengths.slice(c.startLine - 1, c.endLine).reduce((a, b) => a + b, 0);
    if (c.endLine > c.startLine) expect(size, `${map.path} ${c.startLine}-${c.endLine}`).toBeLessThanOrEqual(maxChars);
  }
  expect(next - 1).toBe(lengths.length);
  // A top-level symbol is split only when it is larger than a chunk, and then every piece names it as spanning.
  const topLevel = map.symbols.filter(
    (s) =>
      !map.symbols.some(
        (o) =>
          o !== s &&
          o.startLine <= s.startLine &&
          o.endLine >= s.endLine &&
          (o.startLine < s.startLine || o.endLine > s.endLine),
      ),
  );
  for (const s of topLevel) {
    const size = lengths.slice(s.startLine - 1, s.endLine).reduce((a, b) => a + b, 0);
    const whole = chunks.some((c) => c.startLine <= s.startLine && c.endLine >= s.endLine);
    if (size <= maxChars) expect(whole, `${map.path}: ${s.name} ${s.startLine}-${s.endLine} split`).toBe(true);
    else {
      const pieces = chunks.filter((c) => c.endLine >= s.startLine && c.startLine <= s.endLine);
      expect(pieces.length).toBeGreaterThan(1);
      for (const p of pieces) expect(p.spanning.map((x) => x.name)).toContain(s.name);
    }
  }
}

describe('planChunks', () => {
  it('keeps top-level symbols whole and splits an oversized class at its methods', async () => {
    const [map] = await mapTree(['src/core/codemap/testdata/sample.ts.txt']);
    const ts = {
      ...map!,
      symbols: (
        await import('./analyze-file.js').then((m) =>
          m.analyzeFile('sample.ts', readFileSync('src/core/codemap/testdata/sample.ts.txt')),
        )
      ).symbols,
    };
    const text = read(map!);
    checkInvariants(ts, text, 200);
    const chunks = planChunks(lineLengths(text), ts.symbols, 200);
    // AuthService (lines 4-21 with its doc) is ~480 chars: split inside, at member boundaries.
    const pieces = chunks.filter((c) => c.spanning[0]?.name === 'AuthService');
    expect(pieces.length).toBeGreaterThan(1);
    // `login` stays whole together with its doc comment (13-20), in a piece of its own.
    expect(pieces.some((c) => c.startLine <= 13 && c.endLine >= 20 && c.startLine > 11)).toBe(true);
    // `Session` (23-26) stays in one chunk.
    expect(chunks.some((c) => c.startLine <= 23 && c.endLine >= 26)).toBe(true);
  });

  it("holds the invariants on every file of this repository's src/ tree", async () => {
    const maps = await mapTree(['src']);
    expect(maps.length).toBeGreaterThan(20);
    for (const map of maps) {
      if (map.fallback === 'binary') continue;
      checkInvariants(map, read(map), 1500);
    }
  });
});

describe('writeChunks and searchManifest', () => {
  let manifest: ChunkManifest;
  it("writes chunk files whose text is exactly the manifest's line range", async () => {
    const maps = await mapTree(['src/core/codemap']);
    manifest = writeChunks(maps, { outDir: out, maxChars: 2000, source: 'src/core/codemap' }, { readSource: read });
    expect(manifest.total_chunks).toBe(manifest.chunks.length);
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).toEqual(manifest);
    for (const chunk of manifest.chunks) {
      const source = readFileSync(join(repoRoot, chunk.file), 'utf8').split('\n');
      const written = readFileSync(join(out, chunk.path), 'utf8');
      expect(written).toBe(source.slice(chunk.start_line - 1, chunk.end_line).join('\n') + '\n');
      expect(chunk.chars).toBe(written.length);
      for (const s of chunk.symbols) {
        expect(s.line).toBeGreaterThanOrEqual(chunk.start_line);
        expect(s.line).toBeLessThanOrEqual(chunk.end_line);
        expect(source.slice(s.line - 1, s.line + 2).join('\n')).toContain(s.name.replace(/^#+ /, ''));
      }
    }
    const planner = manifest.chunks.find((c) =>
      c.symbols.some((s) => s.name === 'planChunks' && s.kind === 'function'),
    );
    expect(planner?.file).toBe('src/core/codemap/chunk-plan.ts');
    expect(planner?.symbols.find((s) => s.name === 'planChunks')?.exported).toBe(true);
  });

  it('finds chunks by symbol name, kind and file, with or without the side index', async () => {
    const byName = await searchManifest('planChunks', join(out, 'manifest.json'));
    expect(byName.map((h) => h.file)).toContain('src/core/codemap/chunk-plan.ts');
    // Matches by name or qualified name (nested helpers of planChunks are `planChunks.<name>`).
    expect(byName.flatMap((h) => h.symbols).every((s) => /planchunks/i.test(`${s.parent}.${s.name}`))).toBe(true);
    expect(byName.flatMap((h) => h.symbols.map((s) => s.name))).toContain('planChunks');

    const classes = await searchManifest('kind:class', join(out, 'manifest.json'));
    expect(classes.flatMap((h) => h.symbols.map((s) => s.name))).toContain('SymbolSink');
    expect(classes.flatMap((h) => h.symbols).every((s) => s.kind === 'class')).toBe(true);

    const byFile = await searchManifest('file:*/render-budget.ts', join(out, 'manifest.json'));
    expect(new Set(byFile.map((h) => h.file))).toEqual(new Set(['src/core/codemap/render-budget.ts']));
    expect(byFile.flatMap((h) => h.symbols.map((s) => s.name))).toContain('renderWithinBudget');

    const qualified = await searchManifest('SymbolSink.add', join(out, 'manifest.json'));
    expect(qualified.flatMap((h) => h.symbols.map((s) => `${s.parent}.${s.name}`))).toEqual([
      'SymbolSink.add',
      'SymbolSink.addImport',
    ]);

    rmSync(join(out, INDEX_FILE));
    const streamed = await searchManifest('planChunks', join(out, 'manifest.json'));
    expect(streamed).toEqual(byName);
  });
});
