// Budgeted rendering on part of this repository's src/ tree: never over budget, detail monotone in the budget;
// renderView.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../shared/tokenizer.js';
import { createCodeMapper } from './code-mapper.js';
import { renderWithinBudget, type BudgetedMap } from './render-budget.js';
import { renderFileMap, renderView } from './render-map.js';
import { levelRank, DETAIL_LEVELS, type FileMap } from './types.js';

const repoRoot = process.cwd();
const readSource = (m: FileMap): string => readFileSync(join(repoRoot, m.path), 'utf8');
const memo = new Map<string, number>();
const memoCount = (text: string): number => {
  let n = memo.get(text);
  if (n === undefined) memo.set(text, (n = countTokens(text)));
  return n;
};
let maps: FileMap[] = [];

beforeAll(async () => {
  const mapper = createCodeMapper({ cache: null });
  // Three folders, not all of src/: as many files as the budgets need, a cost that does not grow with the tree.
  maps = await mapper.mapPaths(['src/core/codemap', 'src/shared', 'src/store'], repoRoot);
  mapper.close();
});

describe('renderWithinBudget', () => {
  it('never exceeds budgets from 200 to all outlines and is monotone in the budget', () => {
    // The largest budget holds every file at its richest level.
    const everything = maps.reduce((n, m) => n + memoCount(renderFileMap(m, 'full', readSource)), 0) + 1000;
    const budgets = [200, 350, 500, 1000, 2000, 3500, 5000, 10_000, 20_000, 35_000, Math.max(50_000, everything)];
    const results: BudgetedMap[] = budgets.map((budget) =>
      renderWithinBudget(maps, { budget }, { readSource, countTokens: memoCount }),
    );
    results.forEach((r, i) => {
      const tokens = countTokens(r.text);
      expect(tokens, `budget ${budgets[i]}`).toBeLessThanOrEqual(budgets[i]!);
      expect(r.tokens).toBe(tokens);
      expect(r.files.length + r.omitted).toBe(maps.length);
      if (r.omitted > 0) expect(r.text).toContain(`[${r.omitted} more file`);
    });
    for (let i = 1; i < results.length; i++) {
      const poorer = results[i - 1]!;
      const richer = results[i]!;
      expect(richer.omitted).toBeLessThanOrEqual(poorer.omitted);
      if (poorer.level && richer.level) expect(levelRank(richer.level)).toBeGreaterThanOrEqual(levelRank(poorer.level));
      const before = new Map(poorer.files.map((f) => [f.path, levelRank(f.level)]));
      for (const f of richer.files) expect(levelRank(f.level), f.path).toBeGreaterThanOrEqual(before.get(f.path) ?? -1);
    }
    // The smallest budget cannot show everything; the largest shows every file, mostly above outline.
    expect(results[0]!.omitted).toBeGreaterThan(0);
    expect(results[results.length - 1]!.omitted).toBe(0);
    expect(levelRank(results[results.length - 1]!.level!)).toBeGreaterThanOrEqual(levelRank('outline'));
  });

  it('omits test files before any other file', () => {
    const squeezed = renderWithinBudget(maps, { budget: 3000 }, { readSource, countTokens: memoCount });
    const isTest = (p: string): boolean => p.endsWith('.test.ts');
    expect(squeezed.omittedPaths.length).toBeGreaterThan(0);
    if (squeezed.files.some((f) => isTest(f.path))) expect(squeezed.omittedPaths.every(isTest)).toBe(true);
    const firstTest = squeezed.files.findIndex((f) => isTest(f.path));
    if (firstTest >= 0) expect(squeezed.files.slice(firstTest).every((f) => isTest(f.path))).toBe(true);
  });

  it('honours a forced level and omits files rather than overflow', () => {
    const r = renderWithinBudget(maps, { budget: 3000, level: 'compact' }, { readSource, countTokens: memoCount });
    expect(new Set(r.files.map((f) => f.level))).toEqual(new Set(['compact']));
    expect(countTokens(r.text)).toBeLessThanOrEqual(3000);
    expect(r.omitted).toBeGreaterThan(0);
  });
});

describe('rendering levels and renderView', () => {
  it('renders each level of one file with increasing detail', () => {
    const map = maps.find((m) => m.path === 'src/core/codemap/render-budget.ts')!;
    const texts = DETAIL_LEVELS.map((level) => renderFileMap(map, level, readSource));
    expect(texts[0]).toMatch(/^src\/core\/codemap\/render-budget\.ts:1-\d+ \(\d+\.\d KB\)\n$/);
    expect(texts[1]).toContain('  function renderWithinBudget\n');
    expect(texts[2]).toMatch(
      new RegExp(
        /L\d+-\d+ export function renderWithinBudget\(maps: FileMap\[\], options: BudgetOptions, deps: Bu/.source +
          /dgetDeps\): BudgetedMap\n/.source,
      ),
    );
    expect(texts[3]).toContain('// Renders `maps` within `budget` tokens, most central files first and richest.');
    expect(texts[4]).toContain('const steps = stepSequence(');
  });

  it('renderView gives the ground-truth rendering of named symbols', () => {
    const view = renderView(['renderWithinBudget', 'SymbolSink.add', 'NoSuchThing'], 'compact', maps, readSource);
    expect(view.missing).toEqual(['NoSuchThing']);
    expect(view.found.map((f) => f.name)).toEqual(['renderWithinBudget', 'SymbolSink.add']);
    const lines = readFileSync('src/core/codemap/render-budget.ts', 'utf8').split('\n');
    const line = view.found[0]!.line;
    expect(lines[line - 1]).toContain('export function renderWithinBudget(');
    expect(view.text).toContain(`src/core/codemap/render-budget.ts:${line}-`);
    const full = renderView(['shortDoc'], 'full', maps, readSource);
    expect(full.text).toContain('First sentence (or line) of a doc comment');
    expect(full.text).toContain('return sentence.length > DOC_SHORT');
  });
});
