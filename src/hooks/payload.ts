// Owns reading a lifecycle hook's stdin: each client's JSON payload (Claude Code, Codex, Gemini CLI,
// Cursor, OpenCode's plugin) reduced to what strata needs: the event, the transcript, the session and
// the project folder. Unknown fields are ignored; a payload that is not a JSON object is an empty one.

export type HookClient = 'claude-code' | 'codex' | 'gemini' | 'cursor' | 'opencode';

export interface HookPayload {
  /** The event as the client names it (SessionStart, sessionEnd, PreCompress, ...), if given. */
  event?: string;
  transcriptPath?: string;
  sessionId?: string;
  /** The project folder: `cwd`, else the first workspace root (Cursor). */
  cwd?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function parseHookPayload(raw: string): HookPayload {
  let value: unknown;
  try {
    value = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const v = value as Record<string, unknown>;
  const roots = Array.isArray(v.workspace_roots) ? v.workspace_roots : [];
  const payload: HookPayload = {};
  const event = text(v.hook_event_name) ?? text(v.event);
  const transcriptPath = text(v.transcript_path) ?? text(v.transcriptPath);
  const sessionId = text(v.session_id) ?? text(v.conversation_id) ?? text(v.sessionID) ?? text(v.sessionId);
  const cwd = text(v.cwd) ?? text(v.directory) ?? text(roots[0]);
  if (event) payload.event = event;
  if (transcriptPath) payload.transcriptPath = transcriptPath;
  if (sessionId) payload.sessionId = sessionId;
  if (cwd) payload.cwd = cwd;
  return payload;
}
