// Owns the shape of Claude Code transcript records: hand-written guards that read the untyped JSON
// defensively (every field optional, never throws) and the rules that recognise a Claude Code file.

export type JsonObject = Record<string, unknown>;

/** Record types that carry a conversation message. */
export const MESSAGE_TYPES = new Set(['user', 'assistant', 'system']);

/** Record types Claude Code writes that we skip (but count). `summary` also feeds the title. */
const KNOWN_SKIPPED_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
  'permission-mode',
  'last-prompt',
  'ai-title',
  'custom-title',
  'mode',
  'worktree-state',
  'pr-link',
  'agent-name',
  'tag',
]);

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** ISO 8601 timestamp from an ISO string or epoch milliseconds; undefined when unusable. */
export function isoTimestamp(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > 0) return value;
  if (typeof value === 'number' && Number.isFinite(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  return undefined;
}

/** Title of a `summary`, `ai-title`, `agent-name` or `custom-title` record, with its precedence (higher wins). */
export function titleOf(record: JsonObject): { title: string; rank: number } | undefined {
  const type = record.type;
  if (type === 'custom-title') {
    const title = str(record.customTitle) ?? str(record.title);
    return title ? { title, rank: 4 } : undefined;
  }
  // `/rename` writes it beside a custom-title; alone (a named agent) it still names the session.
  if (type === 'agent-name') {
    const title = str(record.agentName);
    return title ? { title, rank: 3 } : undefined;
  }
  if (type === 'ai-title') {
    const title = str(record.aiTitle) ?? str(record.title);
    return title ? { title, rank: 2 } : undefined;
  }
  if (type === 'summary') {
    const title = str(record.summary);
    return title ? { title, rank: 1 } : undefined;
  }
  return undefined;
}

/** `~/.claude/history.jsonl` prompt-log entry: `{display, pastedContents, timestamp, project, sessionId}`. */
export function isPromptLogEntry(record: JsonObject): boolean {
  return (
    typeof record.display === 'string' && ('pastedContents' in record || 'project' in record) && !('type' in record)
  );
}

const RECORD_TYPES = new Set([...MESSAGE_TYPES, ...KNOWN_SKIPPED_TYPES]);

/** True when a parsed line looks like a Claude Code transcript record (not Codex, Gemini, ...). */
export function isTranscriptRecord(record: JsonObject): boolean {
  if ('payload' in record || 'projectHash' in record) return false; // Codex envelopes, Gemini headers
  // Qwen Code records: uuid/parentUuid like Claude Code's, but Gemini API `parts` and system payloads.
  if ((isObject(record.message) && Array.isArray(record.message.parts)) || 'systemPayload' in record) return false;
  if ('parentUuid' in record || 'leafUuid' in record) return true;
  const type = record.type;
  if (typeof type !== 'string' || !RECORD_TYPES.has(type)) return false;
  if (type === 'file-history-snapshot') return true;
  return typeof record.sessionId === 'string' || typeof record.uuid === 'string';
}

/** Raw-text fallback for heads whose first line is too long to parse within the 4 KiB head. */
const HEAD_PATTERNS = [/"parentUuid"\s*:/, /"leafUuid"\s*:/, /"type"\s*:\s*"file-history-snapshot"/];

/**
 * Decides from the first bytes of a `.jsonl` file whether it is a Claude Code transcript or the Claude
 * Code prompt log (both are claimed: the parser reports the prompt log as not a session).
 */
export function headLooksLikeClaudeCode(head: string): boolean {
  const lines = head.split('\n');
  let parsedAny = false;
  for (const line of lines.slice(0, 8)) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      continue; // the head may cut a line short
    }
    if (!isObject(value)) continue;
    parsedAny = true;
    if (isObject(value.message) && Array.isArray(value.message.parts)) return false; // Qwen Code
    if (isTranscriptRecord(value) || isPromptLogEntry(value)) return true;
  }
  if (parsedAny) return false;
  const first = lines[0] ?? '';
  if (!first.trimStart().startsWith('{') || /"payload"\s*:/.test(first)) return false;
  if (/"message"\s*:\s*\{\s*"role"\s*:\s*"(?:user|model)"\s*,\s*"parts"\s*:/.test(first)) return false; // Qwen Code
  if (HEAD_PATTERNS.some((pattern) => pattern.test(first))) return true;
  // A record without parentUuid (exported or hand-written transcripts) whose first line is a long prompt.
  return (
    /"type"\s*:\s*"(?:user|assistant)"/.test(first) && /"sessionId"\s*:/.test(first) && /"message"\s*:\s*\{/.test(first)
  );
}
