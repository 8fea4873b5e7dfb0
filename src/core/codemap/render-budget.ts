// Owns fitting a code map into a token budget: files ranked by centrality get detail first, then
// outlines of the rest, along one fixed sequence of steps; files left out are the least central.
import { countTokens as defaultCountTokens } from '../../shared/tokenizer.js';
import { DETAIL_LEVELS, levelRank, type DetailLevel, type FileMap } from './types.js';
import { renderFileMap, type SourceReader } from './render-map.js';
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
const WEIGHT_FLOOR = 0.0025;

interface Step {
  file: number;
  level: number;
  key: number;
  rank: number;
}

/**
 * The fixed, budget-independent sequence of steps: each shows one file or raises it to a richer level.
 * Steps are ordered by estimated tokens per unit of value (value = centrality × level value), and each
 * file's steps keep their level order, so a larger budget only ever walks further along it.
 */
function stepSequence(
  order: number[],
  weights: number[],
  texts: (i: number, level: number) => string,
  forced: number | undefined,
): Step[] {
  const steps: Step[] = [];
  order.forEach((file, rank) => {
    if (forced !== undefined) {
      steps.push({ file, level: forced, key: rank, rank });
      return;
    }
    let previous = '';
    let floor = 0;
    for (let level = 0; level < DETAIL_LEVELS.length; level++) {
      const text = texts(file, level);
      if (text === previous) {
        steps[steps.length - 1]!.level = level;
        continue;
      }
      const key = Math.max(floor, (text.length - previous.length) / 4 / (weights[file]! * LEVEL_VALUE[level]!));
      floor = key;
      previous = text;
      steps.push({ file, level, key, rank });
    }
  });
  return steps.sort((a, b) => a.key - b.key || a.rank - b.rank || a.level - b.level);
}

/**
 * Renders `maps` within `budget` tokens, most central files first and richest. Tokens are counted
 * exactly only once the UTF-8 byte bound no longer proves the map fits.
 */
export function renderWithinBudget(maps: FileMap[], options: BudgetOptions, deps: BudgetDeps): BudgetedMap {
  const count = deps.countTokens ?? defaultCountTokens;
  const { budget } = options;
  const n = maps.length;
  const memo = new Map<string, { text: string; bytes: number; tokens?: number }>();
  const block = (i: number, level: number) => {
    const key = `${i}:${level}`;
    let hit = memo.get(key);
    if (!hit) {
      const text = renderFileMap(maps[i]!, DETAIL_LEVELS[level]!, deps.readSource);
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

  const ranked = rankFiles(maps, deps.readSource);
  const top = ranked.reduce((max, r) => Math.max(max, r.score), Number.MIN_VALUE);
  const weights: number[] = new Array(n);
  // The floor keeps outlines of the least central files ahead of whole bodies of the most central.
  for (const r of ranked) weights[r.index] = Math.max(r.score / top, WEIGHT_FLOOR);
  const forced = options.level === undefined ? undefined : levelRank(options.level);
  const steps = stepSequence(
    ranked.map((r) => r.index),
    weights,
    (i, level) => block(i, level).text,
    forced,
  );

  const levels = new Array<number>(n).fill(-1);
  let shown = 0;
  let body = 0;
  const applied: { file: number; previous: number }[] = [];
  const fits = (i: number, level: number): boolean => {
    const previous = levels[i]!;
    const nextBody = body - (previous >= 0 ? cost(i, previous) : 0) + cost(i, level);
    return nextBody + overhead(shown + (previous < 0 ? 1 : 0)) <= budget;
  };
  const switchToExact = (): void => {
    exact = true;
    body = levels.reduce((sum, level, i) => sum + (level >= 0 ? tokensOf(i, level) : 0), 0);
  };
  if (overhead(0) > budget) switchToExact();
  if (overhead(0) <= budget) {
    for (const step of steps) {
      if (!fits(step.file, step.level)) {
        if (exact) break;
        switchToExact();
        if (!fits(step.file, step.level)) break;
      }
      const previous = levels[step.file]!;
      body += cost(step.file, step.level) - (previous >= 0 ? cost(step.file, previous) : 0);
      if (previous < 0) shown++;
      levels[step.file] = step.level;
      applied.push({ file: step.file, previous });
    }
  }

  const shownOrder = (): number[] => ranked.map((r) => r.index).filter((i) => levels[i]! >= 0);
  const assemble = (): string => {
    if (shown === 0 && overhead(0) > budget) return '';
    const parts = [header(shown, n, budget), ...shownOrder().map((i) => block(i, levels[i]!).text)];
    if (shown < n) parts.push(omittedNote(n - shown));
    return parts.join('');
  };
  let text = assemble();
  // Blocks start with a path and end with a newline, so their counts add up; if they ever do not, step back.
  while (exact && applied.length > 0 && count(text) > budget) {
    const last = applied.pop()!;
    if (last.previous < 0) shown--;
    levels[last.file] = last.previous;
    text = assemble();
  }
  if (exact && count(text) > budget) text = '';
  const files = shownOrder().map((i) => {
    const level = levels[i]!;
    return {
      path: maps[i]!.path,
      level: DETAIL_LEVELS[level]!,
      get tokens() {
        return tokensOf(i, level);
      },
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
    omittedPaths: maps.filter((_m, i) => levels[i]! < 0).map((m) => m.path),
  };
}
