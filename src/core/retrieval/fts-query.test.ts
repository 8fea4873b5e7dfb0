import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StrataError } from '../../shared/errors.js';
import { toFtsText } from '../../store/fts-text.js';
import { buildFtsQuery, isIdentifierLike } from './fts-query.js';
import { snippetAround } from './snippet.js';

describe('FTS query building', () => {
  it('quotes every term and joins them with explicit AND, so FTS syntax never leaks through', () => {
    expect(buildFtsQuery('sqlite migration').match).toBe('(("sqlite" OR "sqlite"*) AND ("migration" OR "migrat"*))');
    expect(buildFtsQuery('NEAR(a b) col:x').match).toBe('("near a" AND "b" AND "col x")');
    expect(buildFtsQuery('a* ^b').match).toBe('("a" AND "b")');
  });

  it('supports "phrases", OR (binding tighter than AND) and -exclusion', () => {
    expect(buildFtsQuery('"connection pool" OR pgbouncer -docker').match).toBe(
      '("connection pool" OR ("pgbouncer" OR "pgbouncer"*)) NOT ("docker" OR "docker"*)',
    );
    expect(buildFtsQuery('"a b" OR "c d" "e f"').match).toBe('(("a b" OR "c d") AND "e f")');
  });

  it('turns CJK runs into phrases of single characters and identifier parts into phrases', () => {
    expect(buildFtsQuery('数据库').match).toBe('"数 据 库"');
    expect(buildFtsQuery('user-flow').match).toBe('"user flow"*');
    expect(buildFtsQuery('src/core/ingest.ts').match).toBe('"src core ingest ts"');
    expect(buildFtsQuery('m011_native_gan').match).toBe('"m011 native gan"*');
  });

  it('matches a word as itself, as a prefix and by its English stem', () => {
    expect(buildFtsQuery('install').match).toBe('("install" OR "instal"*)');
    expect(buildFtsQuery('failing').match).toBe('("failing" OR "fail"*)');
    expect(buildFtsQuery('happy').match).toBe('("happy" OR "happy"* OR "happi"*)');
    expect(buildFtsQuery('go').match).toBe('"go"');
    expect(buildFtsQuery('failing').highlights).toEqual(['failing', 'fail']);
  });

  it('matches a word said to be common by its exact form only, exclusions and phrases unchanged', () => {
    const common = (exact: string) => exact === '"install"' || exact === '"usestate"';
    expect(buildFtsQuery('install script -docker', common).match).toBe(
      '("install" AND ("script" OR "script"*)) NOT ("docker" OR "docker"*)',
    );
    expect(buildFtsQuery('useState', common).match).toBe('"usestate"');
    expect(buildFtsQuery('"install"', common).match).toBe('"install"');
    expect(buildFtsQuery('install', common).highlights).toEqual(['install']);
    expect(buildFtsQuery('install script', common).words.map((w) => w.match)).toEqual([
      '"install"',
      '("script" OR "script"*)',
    ]);
  });

  it('makes camelCase and alphanumeric identifiers prefix queries and allows the substring fallback', () => {
    const q = buildFtsQuery('parseSession');
    expect(q.match).toBe('("parsesession"* OR "parse session")');
    expect(q.substringFallback).toBe(true);
    expect(buildFtsQuery('sha256').match).toBe('("sha256" OR "sha256"*)');
    expect(buildFtsQuery('plain words').substringFallback).toBe(false);
    expect(isIdentifierLike('snake_case')).toBe(true);
    expect(isIdentifierLike('hello')).toBe(false);
  });

  it('lists the top-level words of a plain multi-word query (none with exclusions or a single term)', () => {
    expect(buildFtsQuery('install script').words.map((w) => w.text)).toEqual(['install', 'script']);
    expect(buildFtsQuery('a OR b c').words.map((w) => w.text)).toEqual(['a OR b', 'c']);
    expect(buildFtsQuery('install -script').words).toEqual([]);
    expect(buildFtsQuery('install').words).toEqual([]);
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

describe('FTS query building against FTS5', () => {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')");
  const texts = [
    'Opened the GitHub repo for better-sqlite3',
    'TypeError: foo is not a function in SessionWriter',
    'Let me run the installation script: flow-install-global.sh',
    'the build failed twice, 数据库 migration',
  ];
  texts.forEach((text, i) => db.prepare('INSERT INTO t (rowid, text) VALUES (?, ?)').run(i + 1, toFtsText(text)));
  const hits = (query: string) =>
    db
      .prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid')
      .pluck()
      .all(buildFtsQuery(query).match) as number[];

  it('runs multi-word queries holding camelCase or capitalised compounds (once an fts5 syntax error)', () => {
    expect(hits('GitHub repo')).toEqual([1]);
    expect(hits('TypeError: foo')).toEqual([2]);
    expect(hits('repo GitHub OR nothing')).toEqual([1]);
  });

  it('finds prefixes, parts of compounds and word forms', () => {
    expect(hits('sqlite')).toEqual([1]);
    expect(hits('writer')).toEqual([2]);
    expect(hits('install-global')).toEqual([3]);
    expect(hits('install')).toEqual([3]);
    expect(hits('failing')).toEqual([4]);
  });

  it('ranks the exact form above a prefix or stem match', () => {
    db.prepare('INSERT INTO t (rowid, text) VALUES (?, ?)').run(10, 'install the package');
    const ranked = db
      .prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t)')
      .pluck()
      .all(buildFtsQuery('install').match) as number[];
    expect(ranked[0]).toBe(10);
    expect(ranked).toContain(3);
  });

  it('never yields an FTS5 syntax error: any input is a valid query or INVALID_QUERY (fuzz)', () => {
    const pieces = [
      '"',
      '-',
      '*',
      '^',
      '(',
      ')',
      ':',
      'OR',
      'AND',
      'NOT',
      'NEAR',
      'NEAR(',
      '+',
      '{',
      '}',
      'a',
      'GitHub',
      'TypeError:',
      'x_y',
      'é',
      '数据',
      '\\',
      "'",
      ',',
      '.',
      '/',
      'col:x',
      '3',
      'ab12',
      '-"x y"',
      'OR OR',
      '""',
    ];
    let seed = 20261124;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const randomChar = () => String.fromCodePoint(Math.floor(random() * 0x3000) + 1);
    const check = db.prepare('SELECT COUNT(*) FROM t WHERE t MATCH ?').pluck();
    for (let i = 0; i < 3000; i++) {
      const n = 1 + Math.floor(random() * 6);
      let text = '';
      for (let j = 0; j < n; j++)
        text +=
          (random() < 0.7 ? pieces[Math.floor(random() * pieces.length)] : randomChar()) + (random() < 0.6 ? ' ' : '');
      let match: string;
      try {
        match = buildFtsQuery(text).match;
      } catch (error) {
        expect(error).toBeInstanceOf(StrataError);
        expect((error as StrataError).code).toBe('INVALID_QUERY');
        continue;
      }
      expect(() => check.get(match), `${JSON.stringify(text)} → ${match}`).not.toThrow();
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
