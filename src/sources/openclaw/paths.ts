// Owns where OpenClaw keeps its sessions: `<state dir>/agents/<agent id>/sessions/<session id>.jsonl`, the
// state dir being `$OPENCLAW_STATE_DIR`, else `~/.openclaw` (on Windows `%USERPROFILE%\.openclaw`). Beside
// them: `sessions.json` (an index), `*.trajectory.jsonl` (run traces) and `.reset.` / `.deleted.` / `.bak-`
// copies of ended sessions, which are not read.
import { basename, dirname, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

export function openclawDefaultRoots(env: Env): string[] {
  return [join(env.OPENCLAW_STATE_DIR?.trim() || join(homeDir(env), '.openclaw'), 'agents')];
}

export function isOpenclawSession(path: string): boolean {
  return SESSION_FILE.test(basename(path)) && basename(dirname(path)) === 'sessions';
}

export function discoverOpenclawSessions(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, {
    onSkippedMatch: onSkipped,
    maxDepth: 4,
    match: (name, dir) => isOpenclawSession(join(dir, name)),
  });
}

export function explainOpenclawFile(path: string): string | undefined {
  // Only under `agents/<agent id>/sessions/` (other agents have a sessions/sessions.json too).
  if (basename(dirname(path)) !== 'sessions' || basename(dirname(dirname(dirname(path)))) !== 'agents')
    return undefined;
  const name = basename(path);
  if (name === 'sessions.json') return 'OpenClaw sessions index: routing and titles, not a transcript';
  if (/\.trajectory(-path)?\.jsonl?$/.test(name)) return 'OpenClaw run trace, not a transcript';
  if (/\.jsonl\.(reset|deleted|bak)[.-]/.test(name))
    return 'OpenClaw copy of a session ended by /reset, deleted or backed up: not read again';
  return undefined;
}
