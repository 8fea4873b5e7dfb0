// Owns where Kimi CLI keeps its sessions: `<share dir>/sessions/<md5 of the work dir>/<session id>/wire.jsonl`,
// the share dir being `$KIMI_SHARE_DIR`, else `~/.kimi` (on Windows `%USERPROFILE%\.kimi`). Beside a wire
// file: `context.jsonl` (the model's context, rewritten on compaction) and `state.json` (the custom title);
// `<share dir>/kimi.json` lists the work dirs, which name the hashed folders.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';
import { isObject, str } from '../json-guards.js';

export const WIRE_FILE = 'wire.jsonl';

export function kimiDefaultRoots(env: Env): string[] {
  return [join(env.KIMI_SHARE_DIR || join(homeDir(env), '.kimi'), 'sessions')];
}

/** A session's wire file, not a subagent's own (`subagents/<id>/wire.jsonl`, whose events the parent repeats). */
export function isSessionWire(path: string): boolean {
  return basename(path) === WIRE_FILE && basename(dirname(dirname(path))) !== 'subagents';
}

export function discoverKimiSessions(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, {
    onSkippedMatch: onSkipped,
    maxDepth: 4,
    match: (name, dir) => isSessionWire(join(dir, name)),
  });
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The work dir whose md5 names the folder above the session (from `kimi.json` two folders up), if listed. */
export function kimiWorkDirOf(wirePath: string): string | undefined {
  const hashDir = dirname(dirname(wirePath));
  const meta = readJson(join(dirname(dirname(hashDir)), 'kimi.json'));
  const dirs = isObject(meta) && Array.isArray(meta.work_dirs) ? meta.work_dirs : [];
  for (const wd of dirs) {
    const path = isObject(wd) ? str(wd.path) : undefined;
    if (!path) continue;
    const md5 = createHash('md5').update(path, 'utf8').digest('hex');
    const kaos = isObject(wd) ? (str(wd.kaos) ?? 'local') : 'local';
    if (basename(hashDir) === (kaos === 'local' ? md5 : `${kaos}_${md5}`)) return path;
  }
  return undefined;
}

/** The title a person gave the session (`custom_title` in `state.json` beside the wire file). */
export function kimiCustomTitle(wirePath: string): string | undefined {
  const state = readJson(join(dirname(wirePath), 'state.json'));
  return isObject(state) ? str(state.custom_title)?.trim() || undefined : undefined;
}

export function explainKimiFile(path: string): string | undefined {
  const name = basename(path);
  if (name === 'kimi.json') return 'Kimi CLI work-dir list: names the projects of the sessions';
  if (!existsSync(join(dirname(path), WIRE_FILE))) return undefined;
  if (name === 'state.json') return 'Kimi CLI session state (approvals, title): read with the wire.jsonl beside it';
  if (/^context(_sub_\d+|_\d+)?\.jsonl$/.test(name))
    return 'Kimi CLI model context (no times, rewritten on compaction): the session is read from wire.jsonl';
  return undefined;
}
