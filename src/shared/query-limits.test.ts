import { describe, expect, it } from 'vitest';
import { checkQuerySize, queryWordCount } from './query-limits.js';

describe('query limits', () => {
  it('counts the words a search matches, not its operators or punctuation', () => {
    expect(queryWordCount('"exact phrase" OR foo_bar -baz NOT qux AND 42')).toBe(6);
    expect(queryWordCount('数据库 迁移')).toBe(2);
  });

  it('refuses more than 64 words or 2,000 characters with one line (a regex: characters only)', () => {
    const words = Array.from({ length: 65 }, (_, i) => `w${i}`).join(' ');
    expect(() => checkQuerySize(words)).toThrow(/^invalid query: 65 words \(at most 64\); keep the words that matter$/);
    expect(() => checkQuerySize(words, true)).not.toThrow();
    expect(() => checkQuerySize(`${'x'.repeat(2001)}`)).toThrow(/^invalid query: 2,001 characters \(at most 2,000\)/);
    expect(() => checkQuerySize(Array.from({ length: 64 }, (_, i) => `w${i}`).join(' OR '))).not.toThrow();
  });
});
