import { describe, expect, it } from 'vitest';
import { alignColumns, formatIndex, textWidth } from './format-index.js';
import type { IndexEntry } from './list-index.js';

describe('textWidth', () => {
  it('counts code points like [...text].length', () => {
    for (const text of ['', 'abc', 'naïve', '数据库', 'a😀b', '😀😀', '\ud800x', 'x\udc00', '\ud83d']) expect(textWidth(text)).toBe([...text].length);
  });
});

describe('alignColumns', () => {
  it('pads by code points, right-aligns numbers and trims line ends', () => {
    expect(alignColumns([['ID', 'N', 'T'], ['😀', '7', ''], ['ab', '12', 'x ']], [false, true, false])).toBe('ID   N  T\n😀    7\nab  12  x');
  });
});

describe('formatIndex titles', () => {
  const entry = (title: string | null): IndexEntry => ({
    id: 'a', shortId: 'a', agent: 'codex', project: null, title, startedAt: null, endedAt: null, messages: 0, userMessages: 0, prompts: 0,
    bashCalls: 0, webFetches: 0, webSearches: 0, linesAdded: 0, linesRemoved: 0, filesTouched: 0, locations: [], commits: 0, subagents: 0,
    parentId: null, relation: null, archived: false, models: [],
  });
  it('collapses white space runs and trims, and leaves tidy titles as they are', () => {
    const lines = formatIndex([entry(' a\tb  c\n'), entry('tidy title'), entry('x\u00a0y'), entry(null)]).split('\n');
    const at = lines[0]!.indexOf('TITLE');
    expect(lines.slice(1).map((l) => l.slice(at))).toEqual(['a b c', 'tidy title', 'x y', '']);
  });
});
