// Owns where Gemini CLI keeps its history (~/.gemini/tmp/<projectHash or project name>/) and how candidate
// files are found: chats/session-*.json (2025) and chats/session-*.jsonl (2026), plus logs.json and
// checkpoint-*.json, which the parser reports as not sessions.
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';

export function geminiDefaultRoots(env: Env): string[] {
  const base = env.GEMINI_CLI_HOME || homeDir(env);
  return [join(base, '.gemini', 'tmp')];
}

export function isSessionFile(path: string): boolean {
  return /^session-.*\.jsonl?$/.test(basename(path)) && basename(dirname(path)) === 'chats';
}

export function isPromptLog(path: string): boolean {
  return basename(path) === 'logs.json';
}

export function isCheckpoint(path: string): boolean {
  return /^checkpoint-.*\.json$/.test(basename(path));
}

const SKIP_DIRS = new Set(['node_modules', '.git']);

/** Every session, prompt log and checkpoint under `root` (normally ~/.gemini/tmp; any ancestor works too). */
export function discoverGeminiFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < 6 && !SKIP_DIRS.has(entry.name)) walk(full, depth + 1);
      } else if (entry.isFile() && (isSessionFile(full) || isPromptLog(full) || isCheckpoint(full))) {
        found.push(full);
      }
    }
  };
  walk(root, 0);
  return found.sort();
}

/** The folder under tmp/ a file belongs to: a sha256 project hash (older builds) or a project name. */
export function projectDirOf(path: string): string | undefined {
  const dir = dirname(path);
  const owner = basename(dir) === 'chats' ? dirname(dir) : dir;
  const name = basename(owner);
  return name && name !== 'tmp' ? name : undefined;
}
