// Owns the boundary checks for OpenCode records (message info and parts, the same JSON in the SQLite
// `data` columns and in the legacy storage/ files) and the mapping of one part to normalized blocks.
import type { Block } from '../../shared/model.js';
import { stringifyJson } from '../../shared/bounded-json.js';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function epochToIso(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > 8.64e15) return undefined;
  return new Date(value).toISOString();
}

/** Parses a JSON `data` column; undefined when it is not a JSON object. */
export function parseJsonObject(text: unknown): Record<string, unknown> | undefined {
  if (isRecord(text)) return text;
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export type PartResult =
  | { blocks: Block[]; prompt?: boolean; compaction?: boolean }
  | { skipped: string }
  | { malformed: string };

function oneLineJson(value: unknown): string {
  try {
    return stringifyJson(value) ?? '';
  } catch {
    return '';
  }
}

function toolBlocks(part: Record<string, unknown>): PartResult {
  const toolName = str(part.tool);
  const callId = str(part.callID) ?? str(part.id);
  if (!toolName) return { malformed: 'tool part without a tool name' };
  const state = isRecord(part.state) ? part.state : {};
  const input = isRecord(state.input) ? state.input : {};
  const call: Block = { kind: 'tool_call', text: oneLineJson(input), toolName, toolInput: input };
  if (callId) call.toolCallId = callId;
  const status = str(state.status);
  if (status && status !== 'completed' && status !== 'error') call.meta = { status };
  const blocks: Block[] = [call];
  if (status === 'completed' || status === 'error') {
    const isError = status === 'error';
    const raw = isError ? state.error : state.output;
    const text = typeof raw === 'string' ? raw : raw == null ? '' : oneLineJson(raw);
    const result: Block = { kind: 'tool_result', text, toolName, isError };
    if (callId) result.toolCallId = callId;
    const meta: Record<string, unknown> = {};
    const title = str(state.title);
    if (title) meta.title = title;
    const attachments = Array.isArray(state.attachments) ? state.attachments.filter(isRecord) : [];
    if (attachments.length > 0) meta.attachments = attachments.map((a) => fileBlock(a).meta);
    if (Object.keys(meta).length > 0) result.meta = meta;
    blocks.push(result);
  }
  return { blocks };
}

function fileBlock(part: Record<string, unknown>): Block {
  const mime = str(part.mime) ?? '';
  const meta: Record<string, unknown> = { mime };
  const filename = str(part.filename);
  if (filename) meta.filename = filename;
  const url = str(part.url);
  // Inline `data:` URLs hold base64 content: never kept.
  if (url && !url.startsWith('data:')) meta.url = url;
  if (isRecord(part.source) && typeof part.source.path === 'string') meta.sourcePath = part.source.path;
  return { kind: mime.startsWith('image/') ? 'image' : 'document', text: '', meta };
}

/** Maps one part (`data` of the part table or a storage/part file) to blocks. Never throws. */
export function partToBlocks(part: Record<string, unknown>): PartResult {
  const type = str(part.type);
  if (!type) return { malformed: 'part without a type' };
  switch (type) {
    case 'text': {
      const text = str(part.text);
      if (text === undefined) return { malformed: 'text part without text' };
      const synthetic = part.synthetic === true;
      const block: Block = { kind: 'text', text };
      if (synthetic) block.noise = 'synthetic';
      if (part.ignored === true) block.meta = { ignored: true };
      return { blocks: [block], prompt: !synthetic && part.ignored !== true };
    }
    case 'reasoning': {
      const text = str(part.text);
      return text === undefined
        ? { malformed: 'reasoning part without text' }
        : { blocks: [{ kind: 'thinking', text }] };
    }
    case 'tool':
      return toolBlocks(part);
    case 'file':
      return { blocks: [fileBlock(part)] };
    case 'subtask': {
      const prompt = str(part.prompt) ?? '';
      const meta: Record<string, unknown> = {};
      if (str(part.agent)) meta.agent = part.agent;
      if (str(part.description)) meta.description = part.description;
      return { blocks: [{ kind: 'system', text: prompt, meta: { subtask: true, ...meta } }] };
    }
    case 'compaction':
      return { blocks: [], compaction: true };
    case 'retry':
      return retryBlocks(part);
    case 'tool-invocation':
      return toolInvocationBlocks(part);
    default: {
      // Part types newer than this parser keep their text; step-start, step-finish, snapshot, patch and agent
      // (bookkeeping) and text-less unknown types are counted.
      const text = str(part.text);
      if (text) return { blocks: [{ kind: 'text', text, meta: { partType: type } }] };
      return { skipped: `part:${type}` };
    }
  }
}

/** The oldest builds' AI SDK tool part: `{toolInvocation: {state, toolCallId, toolName, args, result}}`. */
function toolInvocationBlocks(part: Record<string, unknown>): PartResult {
  const inv = isRecord(part.toolInvocation) ? part.toolInvocation : {};
  const state = str(inv.state);
  return toolBlocks({
    tool: inv.toolName,
    callID: inv.toolCallId,
    state: { status: state === 'result' ? 'completed' : state, input: inv.args, output: inv.result },
  });
}

/** A retry part records the API error that made OpenCode try again. */
function retryBlocks(part: Record<string, unknown>): PartResult {
  const error = isRecord(part.error) ? part.error : {};
  const data = isRecord(error.data) ? error.data : {};
  const text = str(data.message) ?? str(error.message) ?? str(error.name);
  if (!text) return { skipped: 'part:retry' };
  const meta: Record<string, unknown> = { retry: true };
  if (typeof part.attempt === 'number') meta.attempt = part.attempt;
  if (str(error.name)) meta.error = error.name;
  return { blocks: [{ kind: 'system', text, meta }] };
}
