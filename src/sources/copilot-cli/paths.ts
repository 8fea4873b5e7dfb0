// Owns where GitHub Copilot CLI keeps its sessions: `$COPILOT_HOME`, else `$XDG_CONFIG_HOME/.copilot`,
// else `~/.copilot` (all platforms). `session-state/<id>/events.jsonl` (with `workspace.yaml` beside it),
// the earlier flat `session-state/<id>.jsonl`, and the oldest `history-session-state/session_<id>_<ms>.json`.
import { basename, dirname, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import { homeDir } from '../../shared/paths.js';
import { findFiles } from '../find-files.js';

export const WORKSPACE_FILE = 'workspace.yaml';
const EVENTS_FILE = 'events.jsonl';
const LEGACY_FILE = /^session_[\w-]+_\d+\.json$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function copilotDefaultRoots(env: Env): string[] {
  const roots = [
    env.COPILOT_HOME,
    env.XDG_CONFIG_HOME ? join(env.XDG_CONFIG_HOME, '.copilot') : undefined,
    join(homeDir(env), '.copilot'),
  ].filter((r): r is string => typeof r === 'string' && r !== '');
  return [...new Set(roots)];
}

export type CopilotFileKind = 'events' | 'flat' | 'legacy';

/** What a path is by its name and folder alone. */
export function copilotFileKind(path: string): CopilotFileKind | undefined {
  const name = basename(path);
  const dir = basename(dirname(path));
  if (name === EVENTS_FILE && basename(dirname(dirname(path))) === 'session-state') return 'events';
  if (dir === 'session-state' && name.endsWith('.jsonl') && UUID.test(name.slice(0, -6))) return 'flat';
  if (dir === 'history-session-state' && LEGACY_FILE.test(name)) return 'legacy';
  return undefined;
}

/** The session id a file names: its folder (events.jsonl), its stem (flat), or the id in `session_<id>_<ms>`. */
export function sessionIdOfPath(path: string): string {
  const name = basename(path);
  if (name === EVENTS_FILE) return basename(dirname(path));
  if (name.endsWith('.jsonl')) return name.slice(0, -6);
  return /^session_(.+)_\d+\.json$/.exec(name)?.[1] ?? name;
}

export function detectCopilotFile(path: string, head: string): boolean {
  const kind = copilotFileKind(path);
  if (kind === 'legacy') return head.includes('"chatMessages"') || head.includes('"sessionId"');
  if (kind) return /"type"\s*:\s*"(?:session|user|assistant|tool)\.[\w.]+"/.test(head);
  // Named otherwise (copied elsewhere): an event log that opens with Copilot's session.start.
  return (
    basename(path).endsWith('.jsonl') &&
    /^\{"type":"session\.start","data":\{[^\n]*"producer":"copilot-agent"/.test(head)
  );
}

export function discoverCopilotSessions(root: string): string[] {
  return findFiles(root, { maxDepth: 3, match: (file, dir) => copilotFileKind(join(dir, file)) !== undefined });
}

export function explainCopilotFile(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  const at = parts.lastIndexOf('session-state');
  if (at < 0 || at >= parts.length - 2 || basename(path) === EVENTS_FILE) return undefined;
  return basename(path) === WORKSPACE_FILE
    ? 'Copilot CLI session metadata: read with the events.jsonl beside it'
    : 'Copilot CLI session working file (checkpoint or rewind snapshot), not a transcript';
}
