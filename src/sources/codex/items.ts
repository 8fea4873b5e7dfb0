// Owns the conversion of one Codex Responses-API item (message, reasoning, tool call/output, web search) into a
// normalized message. Shared by all three rollout generations; stateless except for the call_id → tool name map.
import type { Block, MessageKind, MessageRole, ParsedMessage } from '../../shared/model.js';
import { arr, isObject, num, obj, str } from './schema.js';
import type { Json } from './schema.js';
import { stringifyJson } from '../../shared/bounded-json.js';
import { markInjectedBlocks } from './injected.js';

export { injectedTag } from './injected.js';

export interface ItemContext {
  sessionKey: string;
  key: string;
  line: number;
  timestamp?: string;
  model?: string;
  /** call_id → tool name for calls seen so far in this parse (results name the tool when known). */
  toolNames: Map<string, string>;
}

export type ItemResult = { message: ParsedMessage } | { skipped: string };

/** `<cwd>…</cwd>` from an injected environment_context block (generation 1/2 have no cwd field). */
export function cwdFromEnvironmentContext(text: string): string | undefined {
  const m = /<cwd>([^<]+)<\/cwd>/.exec(text);
  return m?.[1]?.trim() || undefined;
}

function compactJson(value: unknown): string {
  try {
    return stringifyJson(value) ?? '';
  } catch {
    return String(value);
  }
}

/** Tool arguments arrive as a JSON string: parse to an object, keep the raw string when it is not JSON. */
export function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

export function toolCallBlock(name: string, callId: string, input: unknown): Block {
  return { kind: 'tool_call', text: compactJson(input), toolName: name, toolCallId: callId, toolInput: input };
}

/** Text blocks of a message `content` (string or parts); images keep metadata only, never data URLs. */
export function contentBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content.length > 0 ? [{ kind: 'text', text: content }] : [];
  const blocks: Block[] = [];
  for (const part of arr(content)) {
    if (!isObject(part)) continue;
    const type = str(part.type);
    // Any part carrying text is kept whatever its type (refusals and part types newer than this parser).
    const text = str(part.text) ?? str(part.refusal);
    if (type === 'input_image' || type === 'image_url' || type === 'image') {
      blocks.push({ kind: 'image', text: '', meta: imageMeta(part) });
    } else if (text) {
      blocks.push({ kind: 'text', text });
    }
  }
  return blocks;
}

function imageMeta(part: Json): Record<string, unknown> {
  const url = str(part.image_url) ?? str(obj(part.image_url)?.url) ?? '';
  const dataUrl = /^data:([^;,]+)/.exec(url);
  return dataUrl ? { mediaType: dataUrl[1], inline: true } : url ? { url } : {};
}

/**
 * Output of a tool: plain string, `{content, success}`, a list of content items, or gen-2 `{output, metadata}` JSON.
 */
export function toolOutput(output: unknown): {
  text: string;
  isError: boolean;
  exitCode?: number;
  images?: Record<string, unknown>[];
} {
  let text: string;
  let isError = false;
  let exitCode: number | undefined;
  let images: Record<string, unknown>[] | undefined;
  if (typeof output === 'string') {
    text = output;
    if (output.startsWith('{')) {
      try {
        const parsed = JSON.parse(output) as unknown;
        if (isObject(parsed) && typeof parsed.output === 'string') {
          text = parsed.output;
          exitCode = num(obj(parsed.metadata)?.exit_code);
        }
      } catch {
        // not JSON: keep the raw text
      }
    }
  } else if (isObject(output)) {
    text = typeof output.content === 'string' ? output.content : compactJson(output.content ?? output);
    if (output.success === false) isError = true;
  } else if (Array.isArray(output)) {
    const blocks = contentBlocks(output);
    text = blocks
      .filter((b) => b.kind === 'text')
      .map((b) => b.text)
      .join('\n');
    const imageBlocks = blocks.filter((b) => b.kind === 'image');
    if (imageBlocks.length > 0) images = imageBlocks.map((b) => b.meta ?? {});
  } else {
    text = output === undefined || output === null ? '' : String(output);
  }
  if (exitCode === undefined) {
    const m = /^(?:Process exited with code|Exit code:)\s*(-?\d+)/m.exec(text);
    if (m?.[1] !== undefined) exitCode = Number(m[1]);
  }
  if (exitCode !== undefined && exitCode !== 0) isError = true;
  return { text, isError, ...(exitCode !== undefined ? { exitCode } : {}), ...(images ? { images } : {}) };
}

function message(ctx: ItemContext, role: MessageRole, kind: MessageKind, blocks: Block[], meta?: Json): ParsedMessage {
  const m: ParsedMessage = { sessionKey: ctx.sessionKey, key: ctx.key, role, kind, line: ctx.line, blocks };
  if (ctx.timestamp) m.timestamp = ctx.timestamp;
  if (role === 'assistant' && ctx.model) m.model = ctx.model;
  if (meta && Object.keys(meta).length > 0) m.meta = meta;
  return m;
}

function roleMessage(item: Json, ctx: ItemContext): ItemResult {
  const role = str(item.role) ?? 'user';
  const blocks = contentBlocks(item.content);
  if (blocks.length === 0) return { skipped: 'message:empty' };
  if (role === 'assistant') return { message: message(ctx, 'assistant', 'response', blocks) };
  if (role === 'developer' || role === 'system') {
    return { message: message(ctx, 'system', 'meta', blocks) };
  }
  // A part a person typed makes the item a prompt; injected parts beside it are kept as noise.
  const typed = markInjectedBlocks(blocks);
  const hasText = blocks.some((b) => b.kind === 'text');
  return { message: message(ctx, 'user', typed || !hasText ? 'prompt' : 'meta', blocks) };
}

function reasoningTexts(item: Json): string[] {
  const texts: string[] = [];
  for (const part of [...arr(item.summary), ...arr(item.content)]) {
    const t = isObject(part) ? str(part.text) : typeof part === 'string' ? part : undefined;
    if (t?.trim()) texts.push(t);
  }
  return texts;
}

/** Converts one Responses-API item; encrypted reasoning content is never stored. */
export function convertResponseItem(item: Json, ctx: ItemContext): ItemResult {
  const type = str(item.type) ?? 'untyped';
  switch (type) {
    case 'message':
      return roleMessage(item, ctx);
    case 'reasoning': {
      const texts = reasoningTexts(item);
      if (texts.length === 0) return { skipped: 'reasoning:encrypted' };
      return {
        message: message(
          ctx,
          'assistant',
          'response',
          texts.map((text) => ({ kind: 'thinking', text })),
        ),
      };
    }
    case 'function_call':
    case 'custom_tool_call': {
      // Codex 0.17x names an MCP tool apart from its server (`namespace: "mcp__strata"`, `name: "search"`).
      const bare = str(item.name) ?? 'unknown';
      const ns = str(item.namespace);
      const name = ns && !bare.startsWith(`${ns}__`) ? `${ns}__${bare}` : bare;
      const callId = str(item.call_id) ?? str(item.id) ?? `line:${ctx.line}`;
      ctx.toolNames.set(callId, name);
      const input = parseArguments(type === 'function_call' ? item.arguments : item.input);
      return { message: message(ctx, 'assistant', 'response', [toolCallBlock(name, callId, input)]) };
    }
    case 'local_shell_call': {
      const callId = str(item.call_id) ?? str(item.id) ?? `line:${ctx.line}`;
      ctx.toolNames.set(callId, 'local_shell');
      return {
        message: message(ctx, 'assistant', 'response', [toolCallBlock('local_shell', callId, item.action ?? {})]),
      };
    }
    case 'web_search_call': {
      const callId = str(item.id) ?? `ws:${ctx.line}`;
      const status = str(item.status);
      const block = toolCallBlock('web_search', callId, item.action ?? {});
      if (status) block.meta = { status };
      return { message: message(ctx, 'assistant', 'response', [block]) };
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const callId = str(item.call_id) ?? `line:${ctx.line}`;
      const out = toolOutput(item.output);
      const block: Block = { kind: 'tool_result', text: out.text, toolCallId: callId, isError: out.isError };
      const name = ctx.toolNames.get(callId);
      if (name) block.toolName = name;
      if (out.exitCode !== undefined) block.meta = { exitCode: out.exitCode };
      if (out.images) block.meta = { ...block.meta, images: out.images };
      return { message: message(ctx, 'tool', 'tool_output', [block]) };
    }
    case 'ghost_snapshot':
    case 'compaction':
    case 'compaction_summary':
      return { skipped: `response_item:${type}` };
    default:
      return unknownItem(type, item, ctx);
  }
}

/**
 * Item types newer than this parser: a `*_call` is kept as a tool call (its input: arguments, input, action, or
 * the item's other fields) and a `*_output` as a tool result; anything else is counted by type.
 */
function unknownItem(type: string, item: Json, ctx: ItemContext): ItemResult {
  const output = /^(.+?)(?:_call)?_output$/.exec(type);
  if (output?.[1] && item.output !== undefined) {
    const callId = str(item.call_id) ?? str(item.id) ?? `line:${ctx.line}`;
    const out = toolOutput(item.output);
    const block: Block = { kind: 'tool_result', text: out.text, toolCallId: callId, isError: out.isError };
    block.toolName = ctx.toolNames.get(callId) ?? output[1];
    block.meta = { itemType: type, ...(out.images ? { images: out.images } : {}) };
    return { message: message(ctx, 'tool', 'tool_output', [block]) };
  }
  const call = /^(.+)_call$/.exec(type);
  if (call?.[1]) {
    const name = str(item.name) ?? call[1];
    const callId = str(item.call_id) ?? str(item.id) ?? `line:${ctx.line}`;
    ctx.toolNames.set(callId, name);
    // `result` (generated image data) and encrypted content are payloads, not input worth searching.
    const { type: _t, id: _i, call_id: _c, status: _s, name: _n, result: _r, encrypted_content: _e, ...rest } = item;
    const input = parseArguments(item.arguments ?? item.input ?? item.action ?? rest);
    const block = toolCallBlock(name, callId, input);
    block.meta = { itemType: type, ...(str(item.status) ? { status: item.status } : {}) };
    return { message: message(ctx, 'assistant', 'response', [block]) };
  }
  return { skipped: `response_item:${type}` };
}
