// Owns where Puffin histories live: project folders listed in STRATA_PUFFIN_PATHS (colon-separated),
// each holding `.puffin/history.json`; discovery looks in the folder and up to 3 levels below it.

import { basename, dirname } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

const MAX_DEPTH = 3;
const SKIP_DIRS = new Set(['node_modules', '.git']);

export function puffinDefaultRoots(env: Env): string[] {
  return (env.STRATA_PUFFIN_PATHS ?? '')
    .split(':')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** The project folder (the one containing `.puffin/`) when the file sits at `.puffin/history.json`. */
export function projectForHistoryPath(path: string): string | undefined {
  const dir = dirname(path);
  return basename(dir) === '.puffin' ? dirname(dir) : undefined;
}

export function detectPuffinHistory(path: string, head: string): boolean {
  // history.json and renamed copies of it (history.early.json, history.bak.json) with a "branches" object.
  return /^history(\.[\w-]+)*\.json$/.test(basename(path)) && /"branches"\s*:\s*\{/.test(head);
}

/** Every `.puffin/history.json` under `root` (root itself and up to 3 levels of sub-folders). */
export function discoverPuffinHistories(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  // Project folders up to MAX_DEPTH below root, then their `.puffin/` folder.
  return findFiles(root, {
    onSkippedMatch: onSkipped,
    maxDepth: MAX_DEPTH + 1,
    skipDirs: SKIP_DIRS,
    match: (name, dir) => name === 'history.json' && basename(dir) === '.puffin',
  });
}
