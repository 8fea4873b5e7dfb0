import { describe, expect, it } from 'vitest';
import { computeUniformLimit, countWords, truncateWords, MIN_WORD_LIMIT } from './truncation.js';

describe('uniform word limit', () => {
  it('finds 40 for fields of 20, 50 and 100 words with a target of 100 (20 + 40 + 40 = 100)', () => {
    expect(computeUniformLimit([20, 50, 100], 100)).toBe(40);
    expect(computeUniformLimit([100, 20, 50], 100)).toBe(40); // order does not matter
  });

  it('does not truncate when everything fits', () => {
    expect(computeUniformLimit([20, 50, 100], 170)).toBe(Infinity);
    expect(computeUniformLimit([], 10)).toBe(Infinity);
  });

  it('never goes below the minimum of 6 words', () => {
    expect(MIN_WORD_LIMIT).toBe(6);
    expect(computeUniformLimit([100, 100, 100, 100], 8)).toBe(6);
    expect(computeUniformLimit([100, 100], 30, 10)).toBe(15);
  });

  it('keeps the sum within the target', () => {
    const counts = [3, 7, 12, 40, 41, 300, 5];
    const limit = computeUniformLimit(counts, 60);
    const sum = counts.reduce((a, c) => a + Math.min(c, limit), 0);
    expect(sum).toBeLessThanOrEqual(60);
    expect(sum).toBeGreaterThan(60 - counts.length);
  });
});

describe('word truncation', () => {
  const text = 'one two  three\nfour five six seven';

  it('counts whitespace-separated words', () => {
    expect(countWords(text)).toBe(7);
    expect(countWords('  ')).toBe(0);
  });

  it('cuts to the limit and keeps the original line breaks', () => {
    expect(truncateWords(text, 4)).toEqual({ text: 'one two  three\nfour', words: 7, shown: 4, truncated: true });
    expect(truncateWords(text, 10).truncated).toBe(false);
  });

  it('skips the first N words (pagination)', () => {
    expect(truncateWords(text, 2, 4)).toMatchObject({ text: 'five six', truncated: true });
    expect(truncateWords(text, 10, 4)).toMatchObject({ text: 'five six seven', truncated: false });
    expect(truncateWords(text, 10, 9)).toMatchObject({ text: '', shown: 0 });
  });
});

describe('truncateWords with a known word count', () => {
  it('gives the same result as a full scan for every limit and skip', () => {
    for (const text of ['', '  ', 'one', ' one two  three\nfour\tfive six seven ', 'a\n\nb c\u00a0d e']) {
      const words = countWords(text);
      for (let limit = 1; limit <= words + 1; limit++) {
        for (let skip = 0; skip <= words + 1; skip++)
          expect(truncateWords(text, limit, skip, words)).toEqual(truncateWords(text, limit, skip));
      }
      expect(truncateWords(text, Infinity, 1, words)).toEqual(truncateWords(text, Infinity, 1));
    }
  });
});

describe('countWords', () => {
  it('counts what /\\S+/g matches, for every kind of white space, outside CJK text', () => {
    const spaces = [
      '\t',
      '\n',
      '\v',
      '\f',
      '\r',
      ' ',
      '\u00a0',
      '\u1680',
      '\u2000',
      '\u2005',
      '\u200a',
      '\u2028',
      '\u2029',
      '\u202f',
      '\u205f',
      '\u3000',
      '\ufeff',
    ];
    const others = ['a', 'é', '😀', '\u200b', '\u180e', '\u0085', '-', '\u00ad'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let t = 0; t < 300; t++) {
      let text = '';
      for (let i = Math.floor(next() * 20); i > 0; i--)
        text +=
          next() < 0.4 ? spaces[Math.floor(next() * spaces.length)]! : others[Math.floor(next() * others.length)]!;
      expect(countWords(text)).toBe((text.match(/\S+/g) ?? []).length);
    }
  });

  it('counts CJK text at two characters a word, and cuts it inside a run', () => {
    expect(countWords('数据库迁移失败了')).toBe(4);
    expect(countWords('数据库 migration 失败')).toBe(4);
    expect(countWords('数据库migration')).toBe(3);
    const cut = truncateWords('数据库迁移失败了 and more', 2);
    expect(cut).toMatchObject({ text: '数据库迁', shown: 2, truncated: true, words: 6 });
    expect(truncateWords('数据库迁移失败了', 2, 2).text).toBe('移失败了');
  });
});
