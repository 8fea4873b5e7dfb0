// Owns the shape of a Kimi CLI wire record, read defensively: a first `{"type": "metadata", "protocol_version"}`
// line, then `{timestamp: seconds, message: {type, payload}}` events (TurnBegin, StepBegin, ContentPart,
// ToolCall + ToolCallPart, ToolResult, StatusUpdate, SubagentEvent wrapping any of them, ...).
import { isObject, num, str, type Json } from '../json-guards.js';

export { isObject, num, str, type Json };

export interface WireEvent {
  type: string;
  payload: Json;
  /** ISO time, when the record has one. */
  timestamp?: string;
}

function iso(seconds: number | undefined): string | undefined {
  if (seconds === undefined || seconds <= 0 || seconds > 32503680000) return undefined;
  return new Date(seconds * 1000).toISOString();
}

/** An event of a wire record (or of a SubagentEvent's `event`), else undefined. */
export function asWireEvent(value: unknown, seconds?: number): WireEvent | undefined {
  if (!isObject(value) || typeof value.type !== 'string') return undefined;
  const event: WireEvent = { type: value.type, payload: isObject(value.payload) ? value.payload : {} };
  const timestamp = iso(seconds);
  if (timestamp) event.timestamp = timestamp;
  return event;
}

const METADATA_HEAD = /^\{\s*"type"\s*:\s*"metadata"\s*,\s*"protocol_version"/;
const EVENT_HEAD = /^\{\s*"timestamp"\s*:\s*[\d.]+\s*,\s*"message"\s*:\s*\{\s*"type"\s*:\s*"[A-Z]/;

/** The first bytes of a Kimi CLI wire file: its metadata line, or a timestamped wire message. */
export function isKimiHead(head: string): boolean {
  return METADATA_HEAD.test(head) || EVENT_HEAD.test(head);
}

/** Text of user input or tool output: a string, or content parts (`text`; `think` left out; media named). */
export function partsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value
    .map((p) => (isObject(p) ? (str(p.text) ?? (p.type === 'image_url' ? '[image]' : '')) : ''))
    .filter((t) => t !== '')
    .join('\n');
}
