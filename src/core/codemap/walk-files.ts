// Owns finding the files to map under the given paths: skips VCS/dependency/build folders, .gitignore'd and binary files.
import { lstatSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative, resolve, sep, basename } from 'node:path';
import { StrataError } from '../../shared/errors.js';
import { hasBinaryExtension } from './language-table.js';
import { hasUnreadableName } from '../../shared/regular-file.js';

export const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', 'build', 'out', 'coverage', '.next', '.cache', '__pycache__', '.venv', 'venv', 'target', '.tox', '.mypy_cache', '.pytest_cache']);

export interface FoundFile {
  /** Absolute path. */
  absolute: string;
  /** Display path: relative to the current folder when inside it, '/'-separated. */
  display: string;
}

type Matcher = (relPath: string, isDir: boolean) => boolean;

/** A small .gitignore reader: plain, `*`, `**`, trailing `/` and anchored patterns; negations are ignored. */
export function gitignoreMatcher(text: string): Matcher {
  const rules: { re: RegExp; dirOnly: boolean }[] = [];
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.startsWith('/') || line.includes('/');
    line = line.replace(/^\//, '');
    const body = line
      .split('')
      .map((ch, i, all) => {
        if (ch === '*') return all[i + 1] === '*' ? '' : all[i - 1] === '*' ? '.*' : '[^/]*';
        if (ch === '?') return '[^/]';
        return /[.+^${}()|[\]\\]/.test(ch) ? '\\' + ch : ch;
      })
      .join('');
    rules.push({ re: new RegExp(anchored ? `^${body}$` : `(^|/)${body}$`), dirOnly });
  }
  return (relPath, isDir) => rules.some((r) => (!r.dirOnly || isDir) && r.re.test(relPath));
}

/** Lists mappable files under `paths` (files or folders), sorted, without following symlinks. */
export function walkFiles(paths: string[], cwd: string = process.cwd()): FoundFile[] {
  const found = new Map<string, FoundFile>();
  const display = (abs: string): string => {
    const rel = relative(cwd, abs);
    return (rel && !rel.startsWith('..') ? rel : abs).split(sep).join('/');
  };
  for (const given of paths) {
    const root = resolve(cwd, given);
    if (!existsSync(root)) throw new StrataError('NOT_FOUND', `no such file or folder: ${given}`);
    const stat = lstatSync(root);
    if (stat.isFile()) {
      found.set(root, { absolute: root, display: display(root) });
      continue;
    }
    const ignorePath = join(root, '.gitignore');
    const ignored = existsSync(ignorePath) ? gitignoreMatcher(readFileSync(ignorePath, 'utf8')) : () => false;
    const stack = [root];
    while (stack.length > 0) {
      const dir = stack.pop()!;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        const abs = join(dir, entry.name);
        const rel = relative(root, abs).split(sep).join('/');
        if (entry.isDirectory()) {
          if (SKIPPED_DIRS.has(entry.name) || ignored(rel, true)) continue;
          stack.push(abs);
        } else if (entry.isFile()) {
          if (ignored(rel, false) || hasBinaryExtension(entry.name) || basename(abs).startsWith('.')) continue;
          if (hasUnreadableName(dir, entry.name)) continue; // its name is not UTF-8: it cannot be opened by it
          found.set(abs, { absolute: abs, display: display(abs) });
        }
      }
    }
  }
  return [...found.values()].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}
