// Owns where the pi coding agent keeps its sessions: `<agent dir>/sessions/--<cwd with / as ->--/
// <ISO time>_<session id>.jsonl`, the agent dir being `$PI_CODING_AGENT_DIR`, else `~/.pi/agent` (on Windows
// `%USERPROFILE%\.pi\agent`).
import { basename, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

const SESSION_FILE = /^\d{4}-\d{2}-\d{2}T[\d-]+Z_[0-9a-f][0-9a-f-]*\.jsonl$/i;

export function piDefaultRoots(env: Env): string[] {
  return [join(env.PI_CODING_AGENT_DIR || join(homeDir(env), '.pi', 'agent'), 'sessions')];
}

export function isPiSessionFile(path: string): boolean {
  return SESSION_FILE.test(basename(path));
}

export function discoverPiSessions(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, { onSkippedMatch: onSkipped, maxDepth: 4, match: (name) => SESSION_FILE.test(name) });
}
