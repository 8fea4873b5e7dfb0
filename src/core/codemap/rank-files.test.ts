// Ranking by centrality and spending the budget on the central files first, on a small synthetic repository.
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../shared/tokenizer.js';
import { rankFiles, isPeripheral } from './rank-files.js';
import { renderWithinBudget } from './render-budget.js';
import { levelRank, type CodeSymbol, type FileMap } from './types.js';

const sources = new Map<string, string>();
function file(path: string, symbols: [string, CodeSymbol['kind']][], body: string, imports: string[] = []): FileMap {
  const lines = [
    ...symbols.map(([name, kind]) => `export ${kind} ${name}() { /* ${'detail '.repeat(30)} */ }`),
    ...body.split('\n'),
  ];
  sources.set(path, lines.join('\n') + '\n');
  return {
    path,
    language: 'typescript',
    lines: lines.length,
    bytes: Buffer.byteLength(lines.join('\n')),
    hash: path,
    imports,
    symbols: symbols.map(([name, kind], i) => ({
      name,
      kind,
      signature: `export ${kind} ${name}()`,
      startLine: i + 1,
      endLine: i + 1,
      exported: true,
    })),
  };
}

const maps: FileMap[] = [
  file('.github/scripts/release.ts', [['publishRelease', 'function']], 'CommandEngine CommandEngine'),
  file('src/aaa-leaf.ts', [['leafHelper', 'function']], 'CommandEngine.run(); parseFlags();', ['./engine.js']),
  file(
    'src/engine.ts',
    [
      ['CommandEngine', 'class'],
      ['executeCommand', 'function'],
    ],
    'parseFlags(); formatUsage();',
    ['./flags.js'],
  ),
  file('src/flags.ts', [['parseFlags', 'function']], 'const x = 1;'),
  file('src/usage.ts', [['formatUsage', 'function']], 'CommandEngine; executeCommand();', ['./engine.js']),
  file('src/engine.test.ts', [['testEngine', 'function']], 'CommandEngine executeCommand parseFlags formatUsage', [
    './engine.js',
  ]),
  file('src/zz-plugin.ts', [['pluginHook', 'function']], 'executeCommand(); CommandEngine;', ['./engine.js']),
];
const readSource = (m: FileMap): string => sources.get(m.path)!;

describe('rankFiles', () => {
  it('puts the file others use most first and tests and dot-folders last', () => {
    const ranked = rankFiles(maps, readSource).map((r) => r.path);
    expect(ranked[0]).toBe('src/engine.ts');
    expect(ranked.indexOf('src/flags.ts')).toBeLessThan(ranked.indexOf('src/aaa-leaf.ts'));
    expect(ranked.slice(-2).sort()).toEqual(['.github/scripts/release.ts', 'src/engine.test.ts']);
  });

  it('follows Python relative imports to sibling and parent modules', () => {
    const py = (path: string, imports: string[]): FileMap => ({
      path,
      language: 'python',
      lines: 1,
      bytes: 1,
      hash: path,
      imports,
      symbols: [],
    });
    const pkg = [
      py('pkg/a.py', ['.core']),
      py('pkg/core.py', []),
      py('pkg/sub/b.py', ['..core', '.']),
      py('pkg/sub/c.py', ['..a']),
      py('pkg/z.py', []),
    ];
    const ranked = rankFiles(pkg, () => '').map((r) => r.path);
    expect(ranked[0]).toBe('pkg/core.py');
    expect(ranked.indexOf('pkg/a.py')).toBeLessThan(ranked.indexOf('pkg/z.py'));
  });

  it('recognises tests, vendored, generated and dot-folder files as peripheral', () => {
    for (const p of [
      'pkg/command_test.go',
      'tests/test_api.py',
      'src/a.spec.ts',
      'vendor/x/y.go',
      '.claude/agents/a.md',
      'api.pb.go',
      'dist.min.js',
    ])
      expect(isPeripheral(p), p).toBe(true);
    for (const p of ['command.go', 'src/requests/sessions.py', 'src/core/packager.ts'])
      expect(isPeripheral(p), p).toBe(false);
  });
});

describe('renderWithinBudget with ranking', () => {
  it('gives the central file detail before peripheral files get any, and prints it first', () => {
    for (const budget of [120, 200, 300, 500, 800]) {
      const r = renderWithinBudget(maps, { budget }, { readSource, countTokens });
      expect(countTokens(r.text)).toBeLessThanOrEqual(budget);
      if (r.files.length === 0) continue;
      expect(r.files[0]!.path).toBe('src/engine.ts');
      for (const f of r.files.filter((x) => isPeripheral(x.path)))
        expect(levelRank(r.files[0]!.level)).toBeGreaterThanOrEqual(levelRank(f.level));
      if (budget >= 300) expect(levelRank(r.files[0]!.level)).toBeGreaterThanOrEqual(levelRank('compact'));
      if (r.omitted > 0) expect(r.omittedPaths).toContain('src/engine.test.ts');
    }
  });
});
