// Owns where Factory Droid keeps its sessions: `<home>/.factory/sessions/<cwd with / as ->/<id>.jsonl`, the home
// being `$FACTORY_HOME_OVERRIDE`, else the user's home (as Droid resolves it). Beside each transcript,
// `<id>.settings.json` holds the session's model, autonomy and token totals.
import { basename, dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';
import { isObject } from '../json-guards.js';

const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

export function droidDefaultRoots(env: Env): string[] {
  return [join(env.FACTORY_HOME_OVERRIDE || homeDir(env), '.factory', 'sessions')];
}

export function isDroidSessionName(path: string): boolean {
  return SESSION_FILE.test(basename(path));
}

export function discoverDroidSessions(root: string, onSkipped?: (path: string, reason: string) => void): string[] {
  return findFiles(root, { onSkippedMatch: onSkipped, maxDepth: 1, match: (name) => SESSION_FILE.test(name) });
}

/** The first line of a Droid transcript: its `session_start` record. */
const HEAD = /^\{\s*"type"\s*:\s*"session_start"\s*,\s*"(id|sessionId)"\s*:/;

export function detectDroid(path: string, head: string): boolean {
  return path.endsWith('.jsonl') && HEAD.test(head.replace(/^\uFEFF/, ''));
}

/** `<id>.settings.json` beside a transcript, when it holds an object. */
export function droidSettings(path: string): Record<string, unknown> | undefined {
  try {
    const doc = JSON.parse(readFileSync(join(dirname(path), `${basename(path, '.jsonl')}.settings.json`), 'utf8'));
    return isObject(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

export function explainDroidFile(path: string): string | undefined {
  const name = basename(path);
  if (name.endsWith('.settings.json') || name.endsWith('.settings.json.bak'))
    return 'Factory Droid session settings (model, token totals): read with the transcript beside it';
  return undefined;
}
