// Owns the shapes of Crush's message `parts` (a JSON array of `{type, data}`) read defensively: `text`,
// `reasoning`, `tool_call` (input as a JSON string), `tool_result`, `image_url` / `binary` (kept as
// metadata) and `finish` (no content); and Crush's times, written in seconds or milliseconds.
import type { Block } from '../../shared/model.js';
import { isObject, str, type Json } from '../json-guards.js';

export { isObject, str, type Json };

/** Crush's columns say milliseconds, but its writers (and triggers) store seconds: both are read. */
export function crushTime(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  const ms = value < 1e11 ? value * 1000 : value;
  return ms > 8.64e15 ? undefined : new Date(ms).toISOString();
}

/** A title as Crush stored it, without a reasoning model's `<think>` preamble; its default is no title. */
export function crushTitle(value: unknown): string | undefined {
  const title = str(value)
    ?.replace(/^[\s\S]*<\/think>/, '')
    .trim();
  return title && title !== 'New Session' ? title : undefined;
}

function parseInput(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export type PartResult = { block?: Block; skipped?: string };

export function partBlock(part: unknown): PartResult {
  if (!isObject(part)) return { skipped: 'part:not_an_object' };
  const type = str(part.type) ?? 'untyped';
  const data = isObject(part.data) ? part.data : {};
  switch (type) {
    case 'text': {
      const text = str(data.text);
      return text?.trim() ? { block: { kind: 'text', text } } : { skipped: 'part:text:empty' };
    }
    case 'reasoning': {
      const text = str(data.thinking) ?? str(data.text);
      return text?.trim() ? { block: { kind: 'thinking', text } } : { skipped: 'part:reasoning:empty' };
    }
    case 'tool_call': {
      const name = str(data.name) ?? 'tool';
      const input = parseInput(data.input);
      const block: Block = {
        kind: 'tool_call',
        text: typeof data.input === 'string' ? data.input : '',
        toolName: name,
      };
      block.toolInput = input;
      const id = str(data.id);
      if (id) block.toolCallId = id;
      return { block };
    }
    case 'tool_result': {
      const block: Block = { kind: 'tool_result', text: str(data.content) ?? '' };
      const name = str(data.name);
      if (name) block.toolName = name;
      const id = str(data.tool_call_id);
      if (id) block.toolCallId = id;
      if (data.is_error === true) block.isError = true;
      return { block };
    }
    case 'image_url':
    case 'binary':
      return {
        block: { kind: 'image', text: '', meta: { type, mimeType: str(data.mime_type) ?? str(data.MIMEType) } },
      };
    default: {
      // A newer part that carries text is kept as text.
      const text = str(data.text) ?? str(data.content);
      return text?.trim() ? { block: { kind: 'text', text } } : { skipped: `part:${type}` };
    }
  }
}
