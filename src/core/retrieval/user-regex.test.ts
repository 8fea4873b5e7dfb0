import { describe, expect, it } from 'vitest';
import { compileUserRegex, literalRegExp } from './user-regex.js';
import { StrataError } from '../../shared/errors.js';

describe('compileUserRegex', () => {
  it('matches like a JavaScript regex for ordinary patterns, with -i', () => {
    const re = compileUserRegex('fo+\\s*bar\\d{2}', false);
    expect(re.test('xx foo  bar42 yy')).toBe(true);
    expect(re.test('FOO bar42')).toBe(false);
    expect(compileUserRegex('fo+ bar', true).test('FOO BAR')).toBe(true);
    expect(re.firstMatch('éé foo bar12!')).toEqual({ index: 3, length: 9 });
    expect(re.firstMatch('😀 foo bar12!')).toEqual({ index: 3, length: 9 });
    expect(compileUserRegex('(?<word>ab)c', false).test('xabc')).toBe(true);
  });

  it('runs a catastrophic pattern on a 41-character text, and on 100 kB, in linear time', () => {
    const re = compileUserRegex('(a+)+$', false);
    const started = performance.now();
    expect(re.test('a'.repeat(40) + '!')).toBe(false);
    expect(re.test('a'.repeat(100_000) + '!')).toBe(false);
    expect(re.test('a'.repeat(100_000))).toBe(true);
    // A backtracking engine needs ~2^40 steps for the first text; a linear one milliseconds.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('refuses what needs backtracking, and malformed patterns, as invalid queries (exit 2)', () => {
    for (const bad of ['(a)\\1', 'foo(?=bar)', '(unclosed', '*']) {
      try {
        compileUserRegex(bad, false);
        throw new Error(`accepted ${bad}`);
      } catch (error) {
        expect(error).toBeInstanceOf(StrataError);
        expect((error as StrataError).exitCode).toBe(2);
        expect((error as StrataError).message).toMatch(/^invalid regular expression: /);
      }
    }
  });

  it('literalRegExp finds the text it was given, metacharacters included', () => {
    expect(literalRegExp('a+b (c)').exec('xx a+b (c) yy')?.index).toBe(3);
  });
});
