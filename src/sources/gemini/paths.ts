// Owns where Gemini CLI keeps its history (~/.gemini/tmp/<projectHash or project name>/) and how candidate
// files are found: chats/session-*.json (2025) and chats/session-*.jsonl (2026), plus logs.json and
// checkpoint-*.json, which the parser reports as not sessions.

import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

export function geminiDefaultRoots(env: Env): string[] {
  const base = env.GEMINI_CLI_HOME || homeDir(env);
  return [join(base, '.gemini', 'tmp')];
}

export function isSessionFile(path: string): boolean {
  if (basename(dirname(path)) === 'chats') return /^session-.*\.jsonl?$/.test(basename(path));
  return subagentParentOf(path) !== undefined;
}

/** Subagent sessions live in chats/<parent session id>/<session id>.jsonl: the parent's id, else undefined. */
export function subagentParentOf(path: string): string | undefined {
  if (!path.endsWith('.jsonl') || basename(dirname(dirname(path))) !== 'chats') return undefined;
  return basename(dirname(path)) || undefined;
}

export function isPromptLog(path: string): boolean {
  return basename(path) === 'logs.json';
}

export function isCheckpoint(path: string): boolean {
  return /^checkpoint-.*\.json$/.test(basename(path));
}

const SKIP_DIRS = new Set(['node_modules', '.git']);

/** Every session, prompt log and checkpoint under `root` (normally ~/.gemini/tmp; any ancestor works too). */
export function discoverGeminiFiles(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, {
    onSkippedMatch: onSkipped,
    maxDepth: 6,
    skipDirs: SKIP_DIRS,
    match: (name, dir) => {
      const full = join(dir, name);
      return isSessionFile(full) || isPromptLog(full) || isCheckpoint(full);
    },
  });
}

/** The folder under tmp/ a file belongs to: a sha256 project hash (older builds) or a project name. */
export function projectDirOf(path: string): string | undefined {
  let dir = dirname(path);
  if (subagentParentOf(path) !== undefined) dir = dirname(dir);
  const owner = basename(dir) === 'chats' ? dirname(dir) : dir;
  const name = basename(owner);
  return name && name !== 'tmp' ? name : undefined;
}

/**
 * The project folder Gemini CLI wrote beside a session (`tmp/<project>/.project_root`, one absolute path),
 * else undefined: older builds name the folder by a hash and write no such file.
 */
export function projectRootOf(path: string): string | undefined {
  let dir = dirname(path);
  if (subagentParentOf(path) !== undefined) dir = dirname(dir);
  const owner = basename(dir) === 'chats' ? dirname(dir) : dir;
  let root: string;
  try {
    root = readFileSync(join(owner, '.project_root'), 'utf8').trim();
  } catch {
    return undefined;
  }
  return root && !root.includes('\n') && (isAbsolute(root) || /^[A-Za-z]:[\\/]/.test(root)) ? root : undefined;
}
