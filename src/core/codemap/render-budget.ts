// Owns fitting a code map into a token budget: files ranked by centrality get detail first, then
// outlines of the rest, along one fixed sequence of steps; files left out are the least central.
// A large file's first steps past its outline list only its main exports (8, then 24 names).
import { countTokens as defaultCountTokens } from '../../shared/tokenizer.js';
import { DETAIL_LEVELS, levelRank, type CodeSymbol, type DetailLevel, type FileMap } from './types.js';
import { renderFileMap, renderKeySymbols, type SourceReader } from './render-map.js';
import { rankFiles } from './rank-files.js';

export interface BudgetDeps {
  readSource: SourceReader;
  countTokens?: (text: string) => number;
}

export interface BudgetOptions {
  budget: number;
  /** Force every file to this level (files are still omitted when the budget is too small). */
  level?: DetailLevel;
}

export interface BudgetedFile {
  path: string;
  level: DetailLevel;
  tokens: number;
  /** Set when the file shows only its main exports (this many names) instead of its whole minimal listing. */
  keySymbols?: number;
}

export interface BudgetedMap {
  text: string;
  tokens: number;
  budget: number;
  /** The lowest level among the files shown (null when none fit). */
  level: DetailLevel | null;
  /** Shown files, most central first (the order they are printed in). */
  files: BudgetedFile[];
  omitted: number;
  omittedPaths: string[];
}

const header = (shown: number, total: number, budget: number): string =>
  `# code map: ${shown} of ${total} files, budget ${budget} tokens\n`;
const omittedNote = (count: number): string =>
  `[${count} more file${count === 1 ? '' : 's'} omitted to fit the budget]\n`;

/** What one more step of detail is worth, per level reached: showing a file at all matters most. */
const LEVEL_VALUE = [4, 2, 2, 1, 0.5];
/** Main exports shown before a whole minimal listing, and what each such step is worth. */
const KEY_STEPS: readonly { names: number; value: number }[] = [
  { names: 8, value: 3 },
  { names: 24, value: 1 },
];
const WEIGHT_FLOOR = 0.0025;

/** One rung of a file's ladder of detail: a level, or the minimal level cut to its first `keys` exports. */
interface Rung {
  level: number;
  keys?: number;
  value: number;
}

/** The rungs of one file, poorest first; a forced level is the only rung. */
function ladder(map: FileMap, keySymbols: readonly CodeSymbol[], forced: number | undefined): Rung[] {
  if (forced !== undefined) return [{ level: forced, value: 1 }];
  const rungs: Rung[] = [{ level: 0, value: LEVEL_VALUE[0]! }];
  for (const step of KEY_STEPS) {
    const keys = Math.min(step.names, keySymbols.length);
    // Only where the whole listing is clearly longer: a short file goes straight to its minimal level.
    if (keys === 0 || map.symbols.length <= step.names * 1.5 || keys === rungs[rungs.length - 1]!.keys) continue;
    rungs.push({ level: 1, keys, value: step.value });
  }
  for (let level = 1; level < DETAIL_LEVELS.length; level++)
    rungs.push({ level, value: level === 1 && rungs.length > 1 ? 1 : LEVEL_VALUE[level]! });
  return rungs;
}

interface Step {
  file: number;
  rung: number;
  key: number;
  rank: number;
}

/**
 * The fixed, budget-independent sequence of steps: each shows one file or raises it to a richer rung.
 * Steps are ordered by estimated tokens per unit of value (value = centrality × rung value), and each
 * file's steps keep their rung order, so a larger budget only ever walks further along it.
 */
function stepSequence(
  order: number[],
  weights: number[],
  ladders: Rung[][],
  texts: (i: number, rung: number) => string,
): Step[] {
  const steps: Step[] = [];
  order.forEach((file, rank) => {
    let previous = '';
    let floor = 0;
    ladders[file]!.forEach((r, rung) => {
      const text = texts(file, rung);
      if (text === previous) {
        steps[steps.length - 1]!.rung = rung;
        return;
      }
      const key = Math.max(floor, (text.length - previous.length) / 4 / (weights[file]! * r.value));
      floor = key;
      previous = text;
      steps.push({ file, rung, key, rank });
    });
  });
  return steps.sort((a, b) => a.key - b.key || a.rank - b.rank || a.rung - b.rung);
}

/**
 * Renders `maps` within `budget` tokens, most central files first and richest. Tokens are counted
 * exactly only once the UTF-8 byte bound no longer proves the map fits.
 */
export function renderWithinBudget(maps: FileMap[], options: BudgetOptions, deps: BudgetDeps): BudgetedMap {
  const count = deps.countTokens ?? defaultCountTokens;
  const { budget } = options;
  const n = maps.length;
  const ranked = rankFiles(maps, deps.readSource);
  const forced = options.level === undefined ? undefined : levelRank(options.level);
  const ladders: Rung[][] = new Array(n);
  const keySymbols: CodeSymbol[][] = new Array(n);
  for (const r of ranked) {
    keySymbols[r.index] = r.keySymbols;
    ladders[r.index] = ladder(maps[r.index]!, r.keySymbols, forced);
  }
  const memo = new Map<string, { text: string; bytes: number; tokens?: number }>();
  const block = (i: number, rung: number) => {
    const key = `${i}:${rung}`;
    let hit = memo.get(key);
    if (!hit) {
      const { level, keys } = ladders[i]![rung]!;
      const text =
        keys === undefined
          ? renderFileMap(maps[i]!, DETAIL_LEVELS[level]!, deps.readSource)
          : renderKeySymbols(maps[i]!, keySymbols[i]!.slice(0, keys));
      hit = { text, bytes: Buffer.byteLength(text) };
      memo.set(key, hit);
    }
    return hit;
  };
  const tokensOf = (i: number, level: number): number => {
    const b = block(i, level);
    return (b.tokens ??= count(b.text));
  };
  let exact = false;
  const cost = (i: number, level: number): number => (exact ? tokensOf(i, level) : block(i, level).bytes);
  const measure = (text: string): number => (exact ? count(text) : Buffer.byteLength(text));
  const overhead = (shown: number): number =>
    measure(header(shown, n, budget)) + (shown < n ? measure(omittedNote(n - shown)) : 0);

  const top = ranked.reduce((max, r) => Math.max(max, r.score), Number.MIN_VALUE);
  const weights: number[] = new Array(n);
  // The floor keeps outlines of the least central files ahead of whole bodies of the most central.
  for (const r of ranked) weights[r.index] = Math.max(r.score / top, WEIGHT_FLOOR);
  const steps = stepSequence(
    ranked.map((r) => r.index),
    weights,
    ladders,
    (i, rung) => block(i, rung).text,
  );

  const rungs = new Array<number>(n).fill(-1);
  let shown = 0;
  let body = 0;
  const applied: { file: number; previous: number }[] = [];
  const fits = (i: number, level: number): boolean => {
    const previous = rungs[i]!;
    const nextBody = body - (previous >= 0 ? cost(i, previous) : 0) + cost(i, level);
    return nextBody + overhead(shown + (previous < 0 ? 1 : 0)) <= budget;
  };
  const switchToExact = (): void => {
    exact = true;
    body = rungs.reduce((sum, rung, i) => sum + (rung >= 0 ? tokensOf(i, rung) : 0), 0);
  };
  if (overhead(0) > budget) switchToExact();
  if (overhead(0) <= budget) {
    for (const step of steps) {
      if (!fits(step.file, step.rung)) {
        if (exact) break;
        switchToExact();
        if (!fits(step.file, step.rung)) break;
      }
      const previous = rungs[step.file]!;
      body += cost(step.file, step.rung) - (previous >= 0 ? cost(step.file, previous) : 0);
      if (previous < 0) shown++;
      rungs[step.file] = step.rung;
      applied.push({ file: step.file, previous });
    }
  }

  const shownOrder = (): number[] => ranked.map((r) => r.index).filter((i) => rungs[i]! >= 0);
  const assemble = (): string => {
    if (shown === 0 && overhead(0) > budget) return '';
    const parts = [header(shown, n, budget), ...shownOrder().map((i) => block(i, rungs[i]!).text)];
    if (shown < n) parts.push(omittedNote(n - shown));
    return parts.join('');
  };
  let text = assemble();
  // Blocks start with a path and end with a newline, so their counts add up; if they ever do not, step back.
  while (exact && applied.length > 0 && count(text) > budget) {
    const last = applied.pop()!;
    if (last.previous < 0) shown--;
    rungs[last.file] = last.previous;
    text = assemble();
  }
  if (exact && count(text) > budget) text = '';
  const files = shownOrder().map((i) => {
    const rung = rungs[i]!;
    const { level, keys } = ladders[i]![rung]!;
    return {
      path: maps[i]!.path,
      level: DETAIL_LEVELS[level]!,
      get tokens() {
        return tokensOf(i, rung);
      },
      ...(keys === undefined ? {} : { keySymbols: keys }),
    } as BudgetedFile;
  });
  const lowest = files.reduce<number | null>(
    (min, f) => (min === null ? levelRank(f.level) : Math.min(min, levelRank(f.level))),
    null,
  );
  let tokens: number | undefined;
  return {
    text,
    get tokens() {
      return (tokens ??= text === '' ? 0 : count(text));
    },
    budget,
    level: lowest === null ? null : DETAIL_LEVELS[lowest]!,
    files,
    omitted: n - files.length,
    omittedPaths: maps.filter((_m, i) => rungs[i]! < 0).map((m) => m.path),
  };
}
