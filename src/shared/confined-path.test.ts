import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfined } from './confined-path.js';

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'strata-confined-'));
  root = join(base, 'root');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(base, 'secret.txt'), 'secret\n');
  symlinkSync(join(base, 'secret.txt'), join(root, 'leak.txt'));
  symlinkSync(join(root, 'src', 'a.ts'), join(root, 'alias.ts'));
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('resolveConfined', () => {
  it('accepts relative and absolute paths inside a root, and the root itself', () => {
    expect(resolveConfined([root], 'src/a.ts')).toBe(join(root, 'src', 'a.ts'));
    expect(resolveConfined([root], join(root, 'src'))).toBe(join(root, 'src'));
    expect(resolveConfined([root], '')).toBe(root);
    expect(resolveConfined([root], 'alias.ts')).toBe(join(root, 'alias.ts'));
  });

  it('refuses "..", absolute paths elsewhere and symbolic links that resolve outside', () => {
    expect(() => resolveConfined([root], '../secret.txt')).toThrow(/".." is not allowed/);
    expect(() => resolveConfined([root], 'src/../../secret.txt')).toThrow(/".." is not allowed/);
    expect(() => resolveConfined([root], join(base, 'secret.txt'))).toThrow(/outside the allowed roots/);
    expect(() => resolveConfined([root], 'leak.txt')).toThrow(/symbolic link/);
  });

  it('reports a missing path inside a root as not found', () => {
    expect(() => resolveConfined([root], 'nope.ts')).toThrow(/no such file or folder/);
  });

  it('accepts a path under any of several roots', () => {
    expect(resolveConfined([join(root, 'src'), base], join(base, 'secret.txt'))).toBe(join(base, 'secret.txt'));
  });
});
