// Owns finding the files to map under the given paths: skips VCS/dependency/build folders, binary files and
// whatever any .gitignore of the repository ignores (root, folders above the path given, nested folders).
// A folder the user names is walked even when it lies in an ignored or skipped folder (they asked for it);
// a named folder that yields no file gets a note saying why.
import { lstatSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { StrataError } from '../../shared/errors.js';
import { hasBinaryExtension } from './language-table.js';
import { hasUnreadableName } from '../../shared/regular-file.js';

export const SKIPPED_DIRS = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  'dist',
  'build',
  'out',
  'coverage',
  '.next',
  '.cache',
  '__pycache__',
  '.venv',
  'venv',
  'target',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
]);

export interface FoundFile {
  /** Absolute path. */
  absolute: string;
  /** Display path: relative to the current folder when inside it, '/'-separated. */
  display: string;
}

type Matcher = (relPath: string, isDir: boolean) => boolean;

/** One .gitignore's rules (full gitignore syntax, negations included), for paths relative to its folder. */
export function gitignoreMatcher(text: string): Matcher {
  const rules = ignore().add(text);
  return (relPath, isDir) => rules.ignores(isDir ? `${relPath}/` : relPath);
}

interface IgnoreFrame {
  dir: string;
  rules: Ignore;
}

function readIgnoreFrame(dir: string): IgnoreFrame | undefined {
  const path = join(dir, '.gitignore');
  try {
    if (!lstatSync(path).isFile()) return undefined;
    return { dir, rules: ignore().add(readFileSync(path, 'utf8')) };
  } catch {
    return undefined;
  }
}

/** The repository holding `dir` (the nearest folder up with a .git), or undefined. */
function repositoryRoot(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return undefined;
  }
}

/** .gitignore files from the repository root down to `dir` (exclusive), shallowest first. */
function ancestorFrames(dir: string): IgnoreFrame[] {
  const repo = repositoryRoot(dir);
  if (!repo || repo === dir) return [];
  const frames: IgnoreFrame[] = [];
  const parts = relative(repo, dir).split(sep);
  for (let i = 0; i < parts.length; i++) {
    const frame = readIgnoreFrame(join(repo, ...parts.slice(0, i)));
    if (frame) frames.push(frame);
  }
  return frames;
}

/** Git's rule: the deepest .gitignore with a matching rule decides (a negation re-includes). */
function isIgnored(frames: readonly IgnoreFrame[], abs: string, isDir: boolean): boolean {
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = frames[i]!;
    const rel = relative(frame.dir, abs).split(sep).join('/');
    const verdict = frame.rules.test(isDir ? `${rel}/` : rel);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

/** Why a walk left files out, counted per named folder for its note. */
interface Skipped {
  ignored: number;
  binary: number;
  hidden: number;
  folders: Set<string>;
}

function emptyNote(given: string, skipped: Skipped): string {
  const parts = [
    skipped.ignored > 0 ? `${skipped.ignored} ignored by .gitignore` : '',
    skipped.binary > 0 ? `${skipped.binary} binary` : '',
    skipped.hidden > 0 ? `${skipped.hidden} hidden (dot files)` : '',
    skipped.folders.size > 0 ? `skipped folders: ${[...skipped.folders].sort().join(', ')}` : '',
  ].filter(Boolean);
  return `${given}: no files to map${parts.length > 0 ? ` (${parts.join('; ')})` : ' (the folder is empty)'}`;
}

/**
 * Lists mappable files under `paths` (files or folders), sorted, without following symlinks. `notes`
 * collects one line per named folder walked despite its .gitignore, and per named folder that gave no file.
 */
export function walkFiles(paths: string[], cwd: string = process.cwd(), notes: string[] = []): FoundFile[] {
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
    // Every .gitignore applies: those of the repository root and folders above `root`, and nested ones;
    // those above stop applying when they ignore `root` itself, which the user named.
    let above = ancestorFrames(root);
    if (isIgnored(above, root, true)) {
      notes.push(`${given}: ignored by .gitignore, mapped because it was named`);
      above = [];
    }
    const rootFrames = [...above, ...[readIgnoreFrame(root)].filter((f): f is IgnoreFrame => f !== undefined)];
    const before = found.size;
    const skipped: Skipped = { ignored: 0, binary: 0, hidden: 0, folders: new Set() };
    const stack: { dir: string; frames: IgnoreFrame[] }[] = [{ dir: root, frames: rootFrames }];
    while (stack.length > 0) {
      const { dir, frames } = stack.pop()!;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        const abs = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (SKIPPED_DIRS.has(entry.name)) skipped.folders.add(entry.name);
          else if (isIgnored(frames, abs, true)) skipped.ignored++;
          else {
            const own = readIgnoreFrame(abs);
            stack.push({ dir: abs, frames: own ? [...frames, own] : frames });
          }
        } else if (entry.isFile()) {
          if (hasBinaryExtension(entry.name)) skipped.binary++;
          else if (entry.name.startsWith('.')) skipped.hidden++;
          else if (isIgnored(frames, abs, false)) skipped.ignored++;
          else if (!hasUnreadableName(dir, entry.name)) found.set(abs, { absolute: abs, display: display(abs) });
        }
      }
    }
    if (found.size === before) notes.push(emptyNote(given, skipped));
  }
  return [...found.values()].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}
