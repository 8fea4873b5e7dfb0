// Owns where Aider histories live: the project folders listed in STRATA_AIDER_PATHS (colon-separated).
// Aider writes `.aider.chat.history.md` in the project root; discovery looks in each folder and up
// to 3 levels below it, skipping node_modules and .git.

import { basename } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

const CHAT_HISTORY_NAME = '.aider.chat.history.md';
const INPUT_HISTORY_NAME = '.aider.input.history';
const MAX_DEPTH = 3;
const SKIP_DIRS = new Set(['node_modules', '.git']);

export function aiderDefaultRoots(env: Env): string[] {
  return (env.STRATA_AIDER_PATHS ?? '')
    .split(':')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** Chat histories by name (or any Markdown file that starts like one); the input log too, to report it. */
export function detectAiderFile(path: string, head: string): boolean {
  const name = basename(path);
  if (name === CHAT_HISTORY_NAME || name === INPUT_HISTORY_NAME) return true;
  return name.endsWith('.md') && /^# aider chat started at /m.test(head);
}

export function discoverAiderHistories(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, {
    onSkippedMatch: onSkipped,
    maxDepth: MAX_DEPTH,
    skipDirs: SKIP_DIRS,
    match: (name) => name === CHAT_HISTORY_NAME,
  });
}
