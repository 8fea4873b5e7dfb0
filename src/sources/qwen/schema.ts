// Owns the shape of a Qwen Code chat record, read defensively: `{uuid, parentUuid, sessionId, timestamp,
// type: user | assistant | tool_result | system, cwd, version, gitBranch, message: {role, parts},
// usageMetadata, model, toolCallResult, subtype, systemPayload}`. `message.parts` are Gemini API parts.
import { isObject, num, str, type Json } from '../json-guards.js';

export { isObject, num, str, type Json };

/** A Qwen Code record (not a Claude Code one): its message holds Gemini `parts`, or it has a `systemPayload`. */
export function isQwenRecord(value: unknown): value is Json {
  if (!isObject(value) || typeof value.type !== 'string' || typeof value.uuid !== 'string') return false;
  return (isObject(value.message) && Array.isArray(value.message.parts)) || isObject(value.systemPayload);
}

/** The raw-text form of a Qwen message opening, for heads whose first line is cut short. */
export const QWEN_HEAD = /"message"\s*:\s*\{\s*"role"\s*:\s*"(?:user|model)"\s*,\s*"parts"\s*:\s*\[/;

/** Parts of a record's message (empty when it has none). */
export function partsOf(record: Json): unknown[] {
  return isObject(record.message) && Array.isArray(record.message.parts) ? record.message.parts : [];
}
