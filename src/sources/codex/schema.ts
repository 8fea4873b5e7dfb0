// Owns the boundary guards for Codex CLI records: which generation a line belongs to and safe field access.
// Codex publishes no schema; every field is optional and nothing here throws on data.

export { isObject, str, num, type Json } from '../json-guards.js';
import { isObject, str, type Json } from '../json-guards.js';

export function obj(v: unknown): Json | undefined {
  return isObject(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Item types of the Responses API that Codex writes (bare in generation 2, as `response_item` payloads in 3). */
const RESPONSE_ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
  'ghost_snapshot',
  'compaction_summary',
]);

/** Generation-3 envelope types. */
const ENVELOPE_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);

export type CodexLine =
  | { kind: 'envelope'; type: string; timestamp?: string; payload: Json }
  | { kind: 'legacy_header'; id: string; timestamp?: string; record: Json }
  | { kind: 'legacy_state' }
  | { kind: 'bare_item'; item: Json }
  | { kind: 'unknown'; type: string }
  | { kind: 'malformed'; reason: string };

/** Classifies one parsed JSONL value into a Codex record shape (generation 2 or 3). */
export function classifyCodexLine(value: unknown): CodexLine {
  if (!isObject(value)) return { kind: 'malformed', reason: 'record is not a JSON object' };
  const type = str(value.type);
  if (type !== undefined && 'payload' in value) {
    if (!ENVELOPE_TYPES.has(type)) return { kind: 'unknown', type };
    if (!isObject(value.payload)) return { kind: 'malformed', reason: `${type} record without an object payload` };
    return { kind: 'envelope', type, timestamp: str(value.timestamp), payload: value.payload };
  }
  if (str(value.record_type) !== undefined) {
    return value.record_type === 'state'
      ? { kind: 'legacy_state' }
      : { kind: 'unknown', type: `record_type:${String(value.record_type)}` };
  }
  if (type === undefined && typeof value.id === 'string' && 'timestamp' in value) {
    return { kind: 'legacy_header', id: value.id, timestamp: str(value.timestamp), record: value };
  }
  if (type !== undefined) {
    return RESPONSE_ITEM_TYPES.has(type) ? { kind: 'bare_item', item: value } : { kind: 'unknown', type };
  }
  return { kind: 'unknown', type: 'untyped' };
}

/** The parent a rollout declares in its own session_meta: a fork source or the thread that spawned a subagent. */
export function declaredParent(meta: Json): { key: string; relation: 'fork' | 'subagent' } | undefined {
  const spawn = obj(obj(obj(meta.source)?.subagent)?.thread_spawn);
  const spawnParent = str(spawn?.parent_thread_id);
  if (spawnParent) return { key: spawnParent, relation: 'subagent' };
  const forked = str(meta.forked_from_id);
  if (forked) return { key: forked, relation: 'fork' };
  return undefined;
}
