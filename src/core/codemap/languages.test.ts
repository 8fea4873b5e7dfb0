// Per-language symbol extraction on small real-world-style sources (testdata/*.txt), lines checked against the source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeFile } from './analyze-file.js';
import type { CodeSymbol, FileMap } from './types.js';

const dir = join(import.meta.dirname, 'testdata');

async function mapSample(name: string): Promise<{ map: FileMap; lines: string[] }> {
  const bytes = readFileSync(join(dir, `${name}.txt`));
  const map = await analyzeFile(name, bytes);
  return { map, lines: bytes.toString('utf8').split('\n') };
}

function find(map: FileMap, qualified: string): CodeSymbol {
  const hit = map.symbols.find((s) => (s.parent ? `${s.parent}.${s.name}` : s.name) === qualified);
  if (!hit)
    throw new Error(`no symbol ${qualified} in ${map.symbols.map((s) => `${s.parent ?? ''}.${s.name}`).join(', ')}`);
  return hit;
}

type Expect = [qualified: string, kind: string, start: number, end: number, exported: boolean];

function check(map: FileMap, lines: string[], expected: Expect[]): void {
  expect(map.fallback).toBeUndefined();
  for (const [q, kind, start, end, exported] of expected) {
    const s = find(map, q);
    expect({ q, kind: s.kind, start: s.startLine, end: s.endLine, exported: s.exported }).toEqual({
      q,
      kind,
      start,
      end,
      exported,
    });
  }
  // Every symbol's name appears on its first lines (decorators/attributes may come first): 1-based lines are right.
  for (const s of map.symbols) {
    const window = lines.slice(s.startLine - 1, s.startLine + 2).join('\n');
    expect(window, `${s.name} at ${s.startLine}`).toContain(
      s.name === 'default' ? 'export default' : s.name.replace(/^#+ /, ''),
    );
    expect(s.endLine).toBeGreaterThanOrEqual(s.startLine);
  }
}

describe('symbol extraction', () => {
  it(
    'TypeScript: decorated generic class, members, interface, type, enum, nested function, arrow, default ' + 'export',
    async () => {
      const { map, lines } = await mapSample('sample.ts');
      check(map, lines, [
        ['AuthService', 'class', 5, 21, true],
        ['AuthService.cache', 'property', 7, 7, false],
        ['AuthService.constructor', 'constructor', 9, 11, true],
        ['AuthService.login', 'method', 17, 20, true],
        ['Session', 'interface', 23, 26, true],
        ['Session.expires', 'method', 25, 25, true],
        ['Id', 'type', 28, 28, true],
        ['Color', 'enum', 30, 30, false],
        ['outer', 'function', 33, 38, true],
        ['outer.inner', 'function', 34, 36, false],
        ['add', 'function', 40, 40, true],
        ['default', 'class', 42, 44, true],
      ]);
      expect(map.imports).toEqual(['node:fs', 'better-sqlite3']);
      const cls = find(map, 'AuthService');
      expect(cls.signature).toBe('export class AuthService<T extends object> extends Base implements Service');
      expect(cls.doc).toBe('Authenticates users against the store.');
      expect(cls.docStartLine).toBe(4);
      expect(find(map, 'AuthService.login').doc).toBe('Logs a user in.\nReturns a session token.');
      expect(find(map, 'AuthService.login').signature).toBe(
        'async login(user: string, password: string): Promise<string>',
      );
    },
  );

  it('Python: decorators, docstrings, methods, nested function, private names', async () => {
    const { map, lines } = await mapSample('sample.py');
    check(map, lines, [
      ['MAX_RETRIES', 'constant', 5, 5, true],
      ['Repo', 'class', 8, 28, true],
      ['Repo.items', 'property', 15, 15, true],
      ['Repo.__init__', 'constructor', 17, 18, true],
      ['Repo.size', 'method', 20, 25, true],
      ['size.count', 'function', 23, 24, false],
      ['Repo._private', 'method', 27, 28, false],
      ['top_level', 'function', 31, 32, true],
    ]);
    expect(map.imports).toEqual(['os', 'typing']);
    expect(find(map, 'Repo').doc).toBe('A repository of items.\n\nKeeps them in memory.');
    expect(find(map, 'top_level').signature).toBe('def top_level(x: int, *args, **kwargs) -> "Repo[int]"');
  });

  it('Rust: attributes, generics, traits, impls, macro_rules, modules, pub', async () => {
    const { map, lines } = await mapSample('sample.rs');
    check(map, lines, [
      ['Point', 'struct', 5, 9, true],
      ['Shape', 'trait', 11, 16, true],
      ['Shape.area', 'method', 12, 12, true],
      ['Point', 'struct', 5, 9, true],
      ['Point.new', 'method', 20, 22, true],
      ['Point.private_helper', 'method', 24, 24, false],
      ['square', 'macro', 33, 37, false],
      ['Kind', 'enum', 39, 42, true],
      ['LIMIT', 'constant', 44, 44, false],
      ['inner', 'module', 46, 50, false],
      ['inner.helper', 'function', 47, 49, true],
    ]);
    expect(map.symbols.filter((s) => s.kind === 'impl').map((s) => s.name)).toEqual(['Point', 'Shape for Point']);
    expect(find(map, 'Point').doc).toBe('A point in space.');
    expect(find(map, 'Point.new').signature).toBe('pub fn new(x: T, y: T) -> Self');
    expect(map.imports).toEqual(['std::collections::HashMap', 'serde::{Deserialize,Serialize}']);
  });

  it('Go: structs, interfaces, receivers, generics, exported by case', async () => {
    const { map, lines } = await mapSample('sample.go');
    check(map, lines, [
      ['Store', 'struct', 9, 11, true],
      ['Reader', 'interface', 14, 16, true],
      ['Reader.Read', 'method', 15, 15, true],
      ['MaxItems', 'constant', 18, 18, true],
      ['NewStore', 'function', 21, 23, true],
      ['Store.Get', 'method', 26, 29, true],
      ['helper', 'function', 31, 34, false],
    ]);
    expect(find(map, 'Store.Get').doc).toBe('Get returns an item.');
    expect(find(map, 'helper').signature).toBe('func helper[T any](x T) T');
    expect(map.imports).toEqual(['context', 'fmt']);
  });

  it('Java: annotations, generics, constructors, nested classes, interfaces, enums', async () => {
    const { map, lines } = await mapSample('Sample.java');
    check(map, lines, [
      ['UserRepo', 'class', 9, 27, true],
      ['UserRepo.LIMIT', 'constant', 11, 11, false],
      ['UserRepo.UserRepo', 'constructor', 14, 16, true],
      ['UserRepo.find', 'method', 19, 22, true],
      ['UserRepo.Cache', 'class', 24, 26, false],
      ['Cache.clear', 'method', 25, 25, false],
      ['Repo', 'interface', 29, 31, false],
      ['Level', 'enum', 33, 33, false],
    ]);
    expect(find(map, 'UserRepo.find').signature).toBe('public T find(String id)');
    expect(find(map, 'UserRepo.find').doc).toBe('Finds a user by id.');
    expect(map.imports).toEqual(['java.util.List', 'java.util.Map']);
  });

  it('C: include guards, macros, typedef struct, prototypes merged with definitions, static', async () => {
    const { map, lines } = await mapSample('sample.c');
    check(map, lines, [
      ['MAX', 'macro', 6, 6, true],
      ['Point', 'struct', 9, 12, true],
      ['Color', 'enum', 14, 14, true],
      ['counter', 'variable', 16, 16, false],
      ['add', 'function', 21, 23, true],
      ['name_of', 'function', 25, 27, false],
    ]);
    expect(map.symbols.filter((s) => s.name === 'add')).toHaveLength(1);
    expect(find(map, 'add').doc).toBe('Adds two numbers.');
    expect(map.imports).toEqual(['stdio.h', 'util.h']);
  });

  it('C++: namespaces, templates, classes, out-of-line methods', async () => {
    const { map, lines } = await mapSample('sample.cpp');
    check(map, lines, [
      ['geo', 'namespace', 4, 26, true],
      ['geo.Shape', 'class', 7, 15, true],
      ['Shape.Shape', 'constructor', 10, 10, true],
      ['Shape.sides', 'method', 12, 12, true],
      ['geo.Pair', 'struct', 17, 20, true],
      ['Shape.area', 'method', 22, 24, true],
      ['main', 'function', 28, 30, true],
    ]);
    expect(find(map, 'geo.Shape').signature).toBe('template <typename T> class Shape : public Base');
    expect(find(map, 'geo.Shape').doc).toBe('A shape with an area.');
  });

  it('Markdown: nested headings and code-block ranges, ignoring # inside fences', async () => {
    const { map } = await mapSample('sample.md');
    expect(map.symbols.map((s) => [s.kind, s.name, s.startLine, s.endLine, s.parent ?? null])).toEqual([
      ['heading', 'Title', 1, 16, null],
      ['heading', 'Install', 5, 11, 'Title'],
      ['code-block', 'bash', 7, 10, 'Install'],
      ['heading', 'Usage', 12, 16, 'Title'],
      ['heading', 'Advanced', 14, 16, 'Usage'],
    ]);
  });
});
