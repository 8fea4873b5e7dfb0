// Owns where Codex CLI keeps its rollouts ($CODEX_HOME, default ~/.codex) and how candidate files are found
// and named: `sessions/**/rollout-*.jsonl|json`, `archived_sessions/**`, and the `history.jsonl` prompt log.

import { basename, join, sep } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

function codexHome(env: Env): string {
  return env.CODEX_HOME || join(homeDir(env), '.codex');
}

export function codexDefaultRoots(env: Env): string[] {
  return [codexHome(env)];
}

const ROLLOUT_NAME = /^rollout-.*\.jsonl?$/;
const SKIP_DIRS = new Set(['node_modules', '.git', 'log', 'logs', 'tmp', 'cache', '.cache']);

export function isRolloutFileName(name: string): boolean {
  return ROLLOUT_NAME.test(name);
}

export function isHistoryFileName(name: string): boolean {
  return name === 'history.jsonl';
}

/**
 * Every rollout under `root` (recursively; `sessions/` and `archived_sessions/` are both date trees) plus
 * `history.jsonl` at the top of the root, which the parser reports as not a session.
 */
export function discoverCodexFiles(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, {
    onSkippedMatch: onSkipped,
    maxDepth: 8,
    skipDirs: SKIP_DIRS,
    match: (name, _dir, depth) => isRolloutFileName(name) || (depth === 0 && isHistoryFileName(name)),
  });
}

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl?$/i;

/** The session id embedded in a rollout file name (`rollout-<ts>-<uuid>.jsonl`); it equals session_meta.id. */
export function sessionIdFromFileName(path: string): string | undefined {
  return UUID.exec(basename(path))?.[1]?.toLowerCase();
}

export function isArchivedPath(path: string): boolean {
  return path.split(sep).includes('archived_sessions');
}
