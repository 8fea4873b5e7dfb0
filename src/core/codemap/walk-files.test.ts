// Which files a code map reads: every .gitignore of the repository applies, wherever the walk starts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkFiles } from './walk-files.js';

let repo: string;

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'strata-walk-'));
  const files: Record<string, string> = {
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.gitignore': '*.log\ngenerated/\n/top-only.ts\n',
    'top-only.ts': 'x',
    'src/top-only.ts': 'x',
    'src/app.ts': 'x',
    'src/debug.log': 'x',
    'src/generated/api.ts': 'x',
    'src/pkg/.gitignore': 'secret.ts\n!keep.log\nlocal/\n',
    'src/pkg/secret.ts': 'x',
    'src/pkg/keep.log': 'x',
    'src/pkg/main.ts': 'x',
    'src/pkg/local/a.ts': 'x',
    'src/other/secret.ts': 'x',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('walkFiles and .gitignore', () => {
  it('applies the root .gitignore and nested ones when walking from the root', () => {
    expect(walkFiles(['.'], repo).map((f) => f.display)).toEqual([
      'src/app.ts',
      'src/other/secret.ts',
      'src/pkg/keep.log',
      'src/pkg/main.ts',
      'src/top-only.ts',
    ]);
  });

  it('applies the repository root .gitignore when given a subfolder', () => {
    expect(walkFiles(['src'], repo).map((f) => f.display)).toEqual([
      'src/app.ts',
      'src/other/secret.ts',
      'src/pkg/keep.log',
      'src/pkg/main.ts',
      'src/top-only.ts',
    ]);
    expect(walkFiles(['src/pkg'], repo).map((f) => f.display)).toEqual(['src/pkg/keep.log', 'src/pkg/main.ts']);
  });
});
