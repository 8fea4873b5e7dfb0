// Owns fitting a code map into a token budget: richest levels first, lowering the largest files, then omitting files.
import { countTokens as defaultCountTokens } from '../../shared/tokenizer.js';
import { DETAIL_LEVELS, levelRank, type DetailLevel, type FileMap } from './types.js';
import { renderFileMap, type SourceReader } from './render-map.js';

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
  files: BudgetedFile[];
  omitted: number;
  omittedPaths: string[];
}

const header = (shown: number, total: number, budget: number): string =>
  `# code map: ${shown} of ${total} files, budget ${budget} tokens\n`;
const omittedNote = (count: number): string => `[${count} more file${count === 1 ? '' : 's'} omitted to fit the budget]\n`;

/**
 * Renders `maps` within `budget` tokens. Downgrades follow one fixed sequence (largest file first, ties by order),
 * independent of the budget, so a larger budget never gives any file a poorer level.
 */
export function renderWithinBudget(maps: FileMap[], options: BudgetOptions, deps: BudgetDeps): BudgetedMap {
  const count = deps.countTokens ?? defaultCountTokens;
  const { budget } = options;
  const memo = new Map<string, { text: string; tokens: number }>();
  const render = (i: number, level: DetailLevel): { text: string; tokens: number } => {
    const key = `${i}:${level}`;
    let hit = memo.get(key);
    if (!hit) {
      const text = renderFileMap(maps[i]!, level, deps.readSource);
      hit = { text, tokens: count(text) };
      memo.set(key, hit);
    }
    return hit;
  };
  const levels: number[] = maps.map(() => levelRank(options.level ?? 'full'));
  let shown = maps.length;
  let body = maps.reduce((sum, _m, i) => sum + render(i, DETAIL_LEVELS[levels[i]!]!).tokens, 0);
  const overhead = (): number => count(header(shown, maps.length, budget)) + (shown < maps.length ? count(omittedNote(maps.length - shown)) : 0);

  /** One step along the fixed downgrade sequence; false when nothing is left to remove. */
  const step = (): boolean => {
    if (options.level === undefined) {
      let pick = -1;
      let pickTokens = -1;
      for (let i = 0; i < shown; i++) {
        if (levels[i]! === 0) continue;
        const t = render(i, DETAIL_LEVELS[levels[i]!]!).tokens;
        if (t > pickTokens) {
          pick = i;
          pickTokens = t;
        }
      }
      if (pick !== -1) {
        levels[pick]!--;
        body += render(pick, DETAIL_LEVELS[levels[pick]!]!).tokens - pickTokens;
        return true;
      }
    }
    if (shown === 0) return false;
    shown--;
    body -= render(shown, DETAIL_LEVELS[levels[shown]!]!).tokens;
    return true;
  };

  const assemble = (): string => {
    if (shown === 0 && count(header(0, maps.length, budget) + omittedNote(maps.length)) > budget) return '';
    const parts = [header(shown, maps.length, budget)];
    for (let i = 0; i < shown; i++) parts.push(render(i, DETAIL_LEVELS[levels[i]!]!).text);
    if (shown < maps.length) parts.push(omittedNote(maps.length - shown));
    return parts.join('');
  };

  while (body + overhead() > budget && step());
  let text = assemble();
  let tokens = count(text);
  // Safety net: token counts of concatenated blocks add up in practice; if they ever do not, keep stepping.
  while (tokens > budget && step()) {
    text = assemble();
    tokens = count(text);
  }
  if (tokens > budget) {
    text = '';
    tokens = 0;
  }
  const files = maps.slice(0, shown).map((m, i) => ({ path: m.path, level: DETAIL_LEVELS[levels[i]!]!, tokens: render(i, DETAIL_LEVELS[levels[i]!]!).tokens }));
  const lowest = files.reduce<number | null>((min, f) => (min === null ? levelRank(f.level) : Math.min(min, levelRank(f.level))), null);
  return {
    text,
    tokens,
    budget,
    level: lowest === null ? null : DETAIL_LEVELS[lowest]!,
    files,
    omitted: maps.length - shown,
    omittedPaths: maps.slice(shown).map((m) => m.path),
  };
}
