import { describe, expect, it } from 'vitest';
import { buildFtsQuery, isIdentifierLike } from './fts-query.js';
import { snippetAround } from './snippet.js';

describe('FTS query building', () => {
  it('quotes every term so FTS syntax never leaks through', () => {
    expect(buildFtsQuery('sqlite migration').match).toBe('"sqlite" "migration"');
    expect(buildFtsQuery('NEAR(a b) col:x').match).toBe('"near a" "b" "col x"');
    expect(buildFtsQuery('a* ^b').match).toBe('"a" "b"');
  });

  it('supports "phrases", OR and -exclusion', () => {
    expect(buildFtsQuery('"connection pool" OR pgbouncer -docker').match).toBe('("connection pool" OR "pgbouncer") NOT "docker"');
  });

  it('turns CJK runs into phrases of single characters and identifier parts into phrases', () => {
    expect(buildFtsQuery('数据库').match).toBe('"数 据 库"');
    expect(buildFtsQuery('user-flow').match).toBe('"user flow"');
    expect(buildFtsQuery('src/core/ingest.ts').match).toBe('"src core ingest ts"');
  });

  it('makes camelCase and alphanumeric identifiers prefix queries and allows the substring fallback', () => {
    const q = buildFtsQuery('parseSession');
    expect(q.match).toBe('("parsesession"* OR "parse session")');
    expect(q.substringFallback).toBe(true);
    expect(buildFtsQuery('sha256').match).toBe('"sha256"*');
    expect(buildFtsQuery('plain words').substringFallback).toBe(false);
    expect(isIdentifierLike('snake_case')).toBe(true);
    expect(isIdentifierLike('hello')).toBe(false);
  });

  it('explains malformed queries in one line (INVALID_QUERY)', () => {
    expect(() => buildFtsQuery('"open')).toThrow(/unbalanced double quote/);
    expect(() => buildFtsQuery('OR a')).toThrow(/OR needs a term/);
    expect(() => buildFtsQuery('a OR')).toThrow(/OR needs a term/);
    expect(() => buildFtsQuery('-a')).toThrow(/not excluded/);
    expect(() => buildFtsQuery('!!! ???')).toThrow(/no searchable words/);
    try {
      buildFtsQuery('"open');
    } catch (error) {
      expect((error as { code: string }).code).toBe('INVALID_QUERY');
    }
  });
});

describe('snippets', () => {
  it('shows N words each side of the first match, with the whole word around a mid-word match', () => {
    const text = 'one two three four parseSessionFile five six seven eight';
    expect(snippetAround(text, /session/gi, 2)).toBe('… three four parseSessionFile five six …');
    expect(snippetAround('no match here at all', /zzz/gi, 1)).toBe('no match here …');
  });
});
