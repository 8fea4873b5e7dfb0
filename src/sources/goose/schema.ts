// Owns the shape of a Goose message, read defensively (Goose's `Message` serialized with serde): `content` is
// an array of `{type}` parts: `text`, `image`, `thinking`, `redactedThinking`, `toolRequest {id, toolCall:
// {status, value: {name, arguments}} | {status: "error", error}}`, `toolResponse {id, toolResult: {status,
// value: CallToolResult | [Content]}}`, `frontendToolRequest`, `toolConfirmationRequest`, `actionRequired`,
// `systemNotification`. Times are seconds (`created`, `created_timestamp`).
import type { Block } from '../../shared/model.js';
import { isObject, num, str, type Json } from '../json-guards.js';
import { toolCallBlock, toolResultBlock } from '../tool-blocks.js';

export { isObject, num, str, type Json };

/** Goose writes seconds; milliseconds are read too. */
export function gooseTime(value: unknown): string | undefined {
  const n = num(value);
  if (n === undefined || n <= 0) return undefined;
  const ms = n < 1e11 ? n * 1000 : n;
  return ms > 8.64e15 ? undefined : new Date(ms).toISOString();
}

/** MCP content items as text (text items; images and resources named). */
function contentText(items: unknown): string {
  if (!Array.isArray(items)) return '';
  return items
    .map((c) => {
      if (!isObject(c)) return '';
      if (typeof c.text === 'string') return c.text;
      if (c.type === 'image') return '[image]';
      const resource = isObject(c.resource) ? c.resource : undefined;
      return str(resource?.text) ?? '';
    })
    .filter((t) => t !== '')
    .join('\n');
}

function toolCall(part: Json, toolNames: Map<string, string>): Block {
  const call = isObject(part.toolCall) ? part.toolCall : {};
  const value = isObject(call.value) ? call.value : {};
  const block = toolCallBlock(str(value.name) ?? 'unknown', value.arguments ?? {}, str(part.id), toolNames);
  if (call.status === 'error') block.meta = { error: str(call.error) ?? 'invalid tool call' };
  return block;
}

function toolResult(part: Json, toolNames: Map<string, string>): Block {
  const result = isObject(part.toolResult) ? part.toolResult : {};
  const value = result.value;
  const items = isObject(value) ? value.content : value;
  let text = contentText(items);
  if (!text && isObject(value) && value.structuredContent !== undefined) text = JSON.stringify(value.structuredContent);
  const shown = result.status === 'error' ? (str(result.error) ?? text) : text;
  const block = toolResultBlock(shown, str(part.id), toolNames);
  if (result.status === 'error' || (isObject(value) && value.isError === true)) block.isError = true;
  return block;
}

export type PartResult = { block?: Block; skipped?: string };

export function partBlock(part: unknown, toolNames: Map<string, string>): PartResult {
  if (!isObject(part)) return { skipped: 'part:not_an_object' };
  const type = str(part.type) ?? 'untyped';
  switch (type) {
    case 'text': {
      const text = str(part.text);
      return text?.trim() ? { block: { kind: 'text', text } } : { skipped: 'part:text:empty' };
    }
    case 'thinking': {
      const text = str(part.thinking);
      return text?.trim() ? { block: { kind: 'thinking', text } } : { skipped: 'part:thinking:empty' };
    }
    case 'toolRequest':
    case 'frontendToolRequest':
      return { block: toolCall(part, toolNames) };
    case 'toolResponse':
      return { block: toolResult(part, toolNames) };
    case 'image':
      return { block: { kind: 'image', text: '', meta: { type, mimeType: str(part.mimeType) } } };
    default: {
      // A newer part that carries text is kept as text.
      const text = str(part.text);
      return text?.trim() ? { block: { kind: 'text', text } } : { skipped: `part:${type}` };
    }
  }
}
