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
    '.gitignore': '*.log\ngenerated/\n/top-only.ts\nnode_modules/\n',
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
    'node_modules/commander/lib/command.js': 'x',
    'node_modules/commander/lib/.hidden.js': 'x',
    'node_modules/commander/lib/logo.png': 'x',
    'node_modules/commander/lib/.gitignore': 'local.js\n',
    'node_modules/commander/lib/local.js': 'x',
    'logs/today.log': 'x',
    'logs/node_modules/x.js': 'x',
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

describe('walkFiles and a folder the user names', () => {
  it('maps a named folder inside an ignored one as a tree of its own (its own .gitignore applies), and says so', () => {
    const notes: string[] = [];
    expect(walkFiles(['node_modules/commander/lib'], repo, notes).map((f) => f.display)).toEqual([
      'node_modules/commander/lib/command.js',
    ]);
    expect(notes).toEqual(['node_modules/commander/lib: ignored by .gitignore, mapped because it was named']);
  });

  it('says why a named folder gave no file', () => {
    const notes: string[] = [];
    expect(walkFiles(['logs'], repo, notes)).toEqual([]);
    expect(notes).toEqual(['logs: no files to map (1 ignored by .gitignore; skipped folders: node_modules)']);
  });
});
