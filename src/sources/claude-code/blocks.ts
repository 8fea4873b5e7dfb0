// Owns the conversion of Claude Code `message.content` into normalized blocks: text (with noise
// marking), thinking, tool calls, tool results (with persisted-output sidecars and structured
// `toolUseResult` bits) and image/document metadata (never the base64 data).
import type { Block } from '../../shared/model.js';
import { readFileHead, sidecarCandidates, sidecarFolder } from './paths.js';
import { isInsideFolder } from '../../shared/regular-file.js';
import { splitNoise } from './noise.js';
import { isObject, str, type JsonObject } from './schema.js';
import { stringifyJson } from '../../shared/bounded-json.js';

/** Upper bound on how much of a persisted tool-output sidecar is read. */
const SIDECAR_MAX_BYTES = 1024 * 1024;

export interface BlockContext {
  /** Path of the transcript (sidecars are looked up beside it). */
  path: string;
  /** The record's `sessionId` (names the sidecar folder). */
  sessionId?: string;
  /** Tool names by call id, from tool calls seen earlier in the same parse. */
  toolNames: Map<string, string>;
  /** Counts a content block type the adapter does not model. */
  skip(name: string): void;
}

/** Metadata of an image/document source: media type and approximate decoded size, never the data. */
function mediaMeta(raw: JsonObject): Record<string, unknown> {
  const source = isObject(raw.source) ? raw.source : {};
  const meta: Record<string, unknown> = {};
  const mediaType = str(source.media_type);
  const sourceType = str(source.type);
  if (mediaType) meta.mediaType = mediaType;
  if (sourceType) meta.sourceType = sourceType;
  if (typeof source.data === 'string') meta.bytes = Math.floor((source.data.length * 3) / 4);
  if (typeof source.url === 'string' && source.url.length <= 2048) meta.url = source.url;
  const title = str(raw.title);
  if (title) meta.title = title;
  return meta;
}

function mediaBlock(kind: 'image' | 'document', raw: JsonObject): Block {
  return { kind, text: '', meta: mediaMeta(raw) };
}

/** User text → one block per typed/noise segment. */
export function textBlocks(text: string, kind: 'text' | 'summary' = 'text'): Block[] {
  return splitNoise(text).map((segment) =>
    segment.noise ? { kind, text: segment.text, noise: segment.noise } : { kind, text: segment.text },
  );
}

function toolCallBlock(raw: JsonObject, ctx: BlockContext): Block {
  const input = raw.input ?? {};
  const id = str(raw.id);
  const name = str(raw.name) ?? 'unknown';
  if (id) ctx.toolNames.set(id, name);
  let text: string | undefined;
  try {
    text = stringifyJson(input);
  } catch {
    text = undefined;
  }
  const block: Block = { kind: 'tool_call', text: text ?? '', toolName: name, toolInput: input };
  if (text !== undefined) block.textIsInput = true;
  if (id) block.toolCallId = id;
  if (raw.type === 'server_tool_use') block.meta = { server: true };
  if (raw.type === 'mcp_tool_use')
    block.meta = { mcp: true, ...(str(raw.server_name) ? { serverName: raw.server_name } : {}) };
  return block;
}

/** Flattens a tool result's `content` (string | blocks) into text plus metadata for non-text parts. */
function flattenResultContent(content: unknown): { text: string; meta: Record<string, unknown>; failed?: boolean } {
  const meta: Record<string, unknown> = {};
  if (typeof content === 'string') return { text: content, meta };
  if (isObject(content) && (typeof content.stdout === 'string' || typeof content.stderr === 'string')) {
    // Server code execution: its output streams, failed when the return code is not 0.
    const text = [str(content.stdout), str(content.stderr)].filter(Boolean).join('\n');
    const code = content.return_code;
    return { text, meta, ...(typeof code === 'number' && code !== 0 ? { failed: true } : {}) };
  }
  if (!Array.isArray(content)) return { text: content == null ? '' : safeJson(content), meta };
  const texts: string[] = [];
  const media: Record<string, unknown>[] = [];
  const toolReferences: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    else if (!isObject(part)) continue;
    else if (part.type === 'image' || part.type === 'document') media.push({ type: part.type, ...mediaMeta(part) });
    else if (part.type === 'tool_reference') toolReferences.push(str(part.tool_name) ?? 'unknown');
    else if (typeof part.text === 'string') texts.push(part.text);
    else {
      // Web search results and similar: title and address, never their encrypted content.
      const cited = [str(part.title), str(part.url)].filter(Boolean).join(' ');
      if (cited) texts.push(cited);
    }
  }
  if (media.length > 0) meta.media = media;
  if (toolReferences.length > 0) meta.toolReferences = toolReferences;
  return { text: texts.join('\n'), meta };
}

function safeJson(value: unknown): string {
  try {
    return stringifyJson(value) ?? '';
  } catch {
    return '';
  }
}

/** Scalar fields of `toolUseResult` worth keeping (file edits' old/new strings are in the call input). */
const RESULT_FIELDS = [
  'agentId',
  'agentType',
  'status',
  'totalDurationMs',
  'totalTokens',
  'totalToolUseCount',
  'filePath',
  'type',
  'interrupted',
  'isImage',
  'returnCodeInterpretation',
  'persistedOutputPath',
  'durationMs',
  'numFiles',
  'numLines',
  'truncated',
  'url',
  'code',
  'bytes',
  'commandName',
  'success',
  'taskId',
  'noOutputExpected',
  'replaceAll',
  'userModified',
  'exitCode',
];

function toolUseResultMeta(value: unknown): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  if (!isObject(value)) return meta;
  for (const field of RESULT_FIELDS) {
    const v = value[field];
    if (typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && v.length <= 1000)) meta[field] = v;
  }
  if (isObject(value.file) && typeof value.file.filePath === 'string') meta.filePath ??= value.file.filePath;
  return meta;
}

const PERSISTED_PATH = /saved to:\s*(\S+)/;

/** Replaces a `<persisted-output>` preview by the sidecar's text when the sidecar exists. */
function resolvePersistedOutput(block: Block, resultMeta: Record<string, unknown>, ctx: BlockContext): void {
  const declared = typeof resultMeta.persistedOutputPath === 'string' ? resultMeta.persistedOutputPath : undefined;
  if (!declared && !block.text.includes('<persisted-output>')) return;
  const names = new Set<string>();
  if (declared) names.add(declared);
  const mentioned = PERSISTED_PATH.exec(block.text)?.[1];
  if (mentioned) names.add(mentioned);
  if (block.toolCallId) names.add(`${block.toolCallId}.txt`);
  for (const name of names) {
    const folder = sidecarFolder(ctx.path, ctx.sessionId);
    for (const candidate of sidecarCandidates(ctx.path, ctx.sessionId, name)) {
      // Only a regular file inside the session's own folder: no symlink out to /etc/passwd, no FIFO.
      if (!folder || !isInsideFolder(candidate, folder)) continue;
      const file = readFileHead(candidate, SIDECAR_MAX_BYTES);
      if (!file) continue;
      block.text = file.text;
      block.meta = { ...block.meta, persistedOutputPath: candidate, persistedOutputBytes: file.size };
      if (file.size > SIDECAR_MAX_BYTES) block.meta.persistedOutputTruncated = true;
      return;
    }
  }
  block.meta = { ...block.meta, persistedOutputMissing: true };
}

export function toolResultBlock(raw: JsonObject, toolUseResult: unknown, ctx: BlockContext): Block {
  const { text, meta, failed } = flattenResultContent(raw.content);
  const block: Block = { kind: 'tool_result', text, isError: raw.is_error === true || failed === true };
  const id = str(raw.tool_use_id);
  if (id) {
    block.toolCallId = id;
    const name = ctx.toolNames.get(id);
    if (name) block.toolName = name;
  }
  const resultMeta = toolUseResultMeta(toolUseResult);
  const merged = { ...meta, ...resultMeta };
  if (Object.keys(merged).length > 0) block.meta = merged;
  resolvePersistedOutput(block, resultMeta, ctx);
  return block;
}

/** Blocks of a user record. `toolUseResult` is attached to the result when the record has exactly one. */
export function userBlocks(content: unknown, toolUseResult: unknown, ctx: BlockContext, summary: boolean): Block[] {
  const textKind = summary ? 'summary' : 'text';
  if (typeof content === 'string') return textBlocks(content, textKind);
  if (!Array.isArray(content)) return [];
  const resultCount = content.filter((part) => isObject(part) && part.type === 'tool_result').length;
  const blocks: Block[] = [];
  for (const part of content) {
    if (typeof part === 'string') blocks.push(...textBlocks(part, textKind));
    else if (!isObject(part)) ctx.skip('block:invalid');
    else if (part.type === 'text') blocks.push(...textBlocks(typeof part.text === 'string' ? part.text : '', textKind));
    else if (part.type === 'tool_result')
      blocks.push(toolResultBlock(part, resultCount === 1 ? toolUseResult : undefined, ctx));
    else if (part.type === 'image' || part.type === 'document') blocks.push(mediaBlock(part.type, part));
    else pushLenient(blocks, part, ctx);
  }
  return blocks;
}

/** Text a block of a type this parser does not model carries: its `text`, else a title and nested text parts. */
export function lenientText(part: JsonObject): string | undefined {
  if (typeof part.text === 'string') return part.text || undefined;
  const nested =
    typeof part.content === 'string'
      ? [part.content]
      : Array.isArray(part.content)
        ? part.content.map((c) => (isObject(c) ? str(c.text) : str(c))).filter((t): t is string => !!t)
        : [];
  const texts = [str(part.title), ...nested].filter((t): t is string => !!t);
  return texts.length > 0 && nested.length > 0 ? texts.join('\n') : undefined;
}

function pushLenient(blocks: Block[], part: JsonObject, ctx: BlockContext): void {
  const text = lenientText(part);
  if (text === undefined) return ctx.skip(`block:${String(part.type)}`);
  blocks.push({ kind: 'text', text, meta: { blockType: String(part.type) } });
}

/** Blocks of one assistant line (usually a single block; merged with its siblings by message id). */
export function assistantBlocks(content: unknown, ctx: BlockContext): Block[] {
  if (typeof content === 'string') return content ? [{ kind: 'text', text: content }] : [];
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (const part of content) {
    if (!isObject(part)) {
      ctx.skip('block:invalid');
    } else if (part.type === 'text') {
      if (typeof part.text === 'string' && part.text) blocks.push({ kind: 'text', text: part.text });
    } else if (part.type === 'thinking') {
      if (typeof part.thinking === 'string' && part.thinking) blocks.push({ kind: 'thinking', text: part.thinking });
    } else if (part.type === 'tool_use' || part.type === 'server_tool_use' || part.type === 'mcp_tool_use') {
      blocks.push(toolCallBlock(part, ctx));
    } else if (typeof part.tool_use_id === 'string') {
      blocks.push(toolResultBlock(part, undefined, ctx)); // web_search_tool_result and friends
    } else if (part.type === 'image' || part.type === 'document') {
      blocks.push(mediaBlock(part.type, part));
    } else {
      pushLenient(blocks, part, ctx);
    }
  }
  return blocks;
}
