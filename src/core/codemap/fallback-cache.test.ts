// Grammar loading, graceful fallbacks (unsupported language, timed-out parse) and the content-keyed parse cache.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeFile } from './analyze-file.js';
import { createCodeMapper } from './code-mapper.js';
import { CACHE_SCHEMA_VERSION } from './parse-cache.js';
import { GRAMMAR_FILES } from './language-table.js';
import { loadGrammar, type ParsedLanguage } from './tree-sitter-runtime.js';
import { renderFileMap } from './render-map.js';
import { walkFiles } from './walk-files.js';

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'strata-codemap-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('grammars and fallbacks', () => {
  it('loads every wasm grammar strata uses', async () => {
    for (const language of Object.keys(GRAMMAR_FILES) as ParsedLanguage[]) {
      const grammar = await loadGrammar(language);
      expect(grammar.nodeTypeCount, language).toBeGreaterThan(10);
    }
  });

  it('outlines an unsupported language instead of failing, at every level', async () => {
    const map = await analyzeFile('config/settings.toml', Buffer.from('[server]\nport = 8080\nhost = "x"\n'));
    expect(map).toMatchObject({ language: null, lines: 3, bytes: 32, symbols: [], fallback: 'unsupported' });
    expect(renderFileMap(map, 'full', () => '')).toBe('config/settings.toml:1-3 (32 B) [unsupported]\n');
  });

  it('outlines a parse that exceeds the per-file timeout', async () => {
    const source = 'export function f(a: number): string { return String(a * 2); }\n'.repeat(20_000);
    const map = await analyzeFile('big.ts', Buffer.from(source), { timeoutMs: 0.001 });
    expect(map.fallback).toBe('timeout');
    expect(map.lines).toBe(20_000);
    expect(renderFileMap(map, 'compact')).toMatch(/^big\.ts:1-20000 \(.* KB\) \[timeout\]\n$/);
    // The same file parses normally without the tiny timeout (the parser recovered).
    const ok = await analyzeFile('small.ts', Buffer.from('export const x = 1;\n'));
    expect(ok.symbols.map((s) => s.name)).toEqual(['x']);
  });

  it(
    'outlines binary content and skips binary names, node_modules, dist and .gitignored files when ' + 'walking',
    async () => {
      const root = tempDir();
      mkdirSync(join(root, 'node_modules/x'), { recursive: true });
      mkdirSync(join(root, 'dist'), { recursive: true });
      mkdirSync(join(root, 'src/gen'), { recursive: true });
      writeFileSync(join(root, 'node_modules/x/index.js'), 'module.exports = 1;\n');
      writeFileSync(join(root, 'dist/a.js'), 'x\n');
      writeFileSync(join(root, 'logo.png'), 'png');
      writeFileSync(join(root, 'src/a.ts'), 'export const a = 1;\n');
      writeFileSync(join(root, 'src/gen/b.ts'), 'export const b = 1;\n');
      writeFileSync(join(root, 'src/blob.dat'), Buffer.from([1, 0, 2, 3]));
      writeFileSync(join(root, '.gitignore'), '# generated\nsrc/gen/\n*.log\n');
      writeFileSync(join(root, 'debug.log'), 'noise\n');
      expect(walkFiles(['.'], root).map((f) => f.display)).toEqual(['src/a.ts', 'src/blob.dat']);
      const blob = await analyzeFile('src/blob.dat', readFileSync(join(root, 'src/blob.dat')));
      expect(blob.fallback).toBe('binary');
    },
  );
});

describe('parse cache', () => {
  it('re-mapping an unchanged tree does zero parses; a changed file is parsed again', async () => {
    const root = tempDir();
    const cachePath = join(tempDir(), 'codemap-cache.db');
    for (let i = 0; i < 5; i++) writeFileSync(join(root, `m${i}.py`), `def f${i}(x):\n    return x + ${i}\n`);
    writeFileSync(join(root, 'notes.txt'), 'plain\n');

    const first = createCodeMapper({ cachePath });
    const maps1 = await first.mapPaths(['.'], root);
    first.close();
    expect(first.stats).toEqual({ files: 6, parses: 5, cacheHits: 0 });

    const second = createCodeMapper({ cachePath });
    const maps2 = await second.mapPaths(['.'], root);
    second.close();
    expect(second.stats).toEqual({ files: 6, parses: 0, cacheHits: 5 });
    expect(maps2).toEqual(maps1);

    writeFileSync(join(root, 'm2.py'), 'def changed():\n    pass\n');
    const third = createCodeMapper({ cachePath });
    const maps3 = await third.mapPaths(['.'], root);
    third.close();
    expect(third.stats.parses).toBe(1);
    expect(maps3.find((m) => m.path === 'm2.py')?.symbols.map((s) => s.name)).toEqual(['changed']);

    const db = new Database(cachePath, { readonly: true });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(CACHE_SCHEMA_VERSION),
    });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('rebuilds the cache when its schema version differs', async () => {
    const cachePath = join(tempDir(), 'c.db');
    const db = new Database(cachePath);
    db.exec(
      "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', " +
        "'0'); CREATE TABLE parsed_files (key TEXT PRIMARY KEY, data TEXT NOT NULL, created_at TEXT NOT NULL); " +
        "INSERT INTO parsed_files VALUES ('k', 'garbage', 'x');",
    );
    db.close();
    const mapper = createCodeMapper({ cachePath });
    mapper.close();
    const check = new Database(cachePath, { readonly: true });
    expect(check.prepare('SELECT COUNT(*) AS n FROM parsed_files').get()).toEqual({ n: 0 });
    check.close();
  });
});
