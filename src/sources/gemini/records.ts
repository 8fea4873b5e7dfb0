// Owns the conversion of one Gemini CLI message record `{id, timestamp, type, content, toolCalls, thoughts,
// tokens, model}` into normalized messages: the record itself, plus one tool_output message per tool result.
import type { Block, MessageKind, MessageRole, ParsedMessage, TokenUsage } from '../../shared/model.js';
import { arr, isObject, num, str } from './schema.js';
import type { Json } from './schema.js';
import { stringifyJson } from '../../shared/bounded-json.js';

function compactJson(value: unknown): string {
  try {
    return stringifyJson(value) ?? '';
  } catch {
    return String(value);
  }
}

/**
 * `content` is a string (2025), one Gemini part or a list of parts (2026): text kept, inline data as metadata
 * only, function calls/responses as tool blocks, executable code and its result as text. Qwen Code records
 * hold the same parts.
 */
export function contentBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content.length > 0 ? [{ kind: 'text', text: content }] : [];
  const blocks: Block[] = [];
  for (const part of isObject(content) ? [content] : arr(content)) {
    if (typeof part === 'string') {
      if (part) blocks.push({ kind: 'text', text: part });
    } else if (isObject(part)) {
      const text = str(part.text);
      if (text !== undefined) {
        if (text) blocks.push({ kind: part.thought === true ? 'thinking' : 'text', text });
      } else if (isObject(part.inlineData) || isObject(part.fileData)) {
        const data = (isObject(part.inlineData) ? part.inlineData : part.fileData) as Json;
        const mediaType = str(data.mimeType) ?? '';
        const meta: Record<string, unknown> = { mediaType };
        if (str(data.fileUri)) meta.uri = data.fileUri;
        blocks.push({ kind: mediaType.startsWith('image/') ? 'image' : 'document', text: '', meta });
      } else {
        const block = structuredPartBlock(part);
        if (block) blocks.push(block);
      }
    }
  }
  return blocks;
}

function structuredPartBlock(part: Json): Block | undefined {
  if (isObject(part.functionCall)) {
    const fc = part.functionCall;
    const input = fc.args ?? {};
    const block: Block = { kind: 'tool_call', text: compactJson(input), toolName: str(fc.name) ?? 'unknown' };
    if (str(fc.id)) block.toolCallId = fc.id as string;
    block.toolInput = input;
    return block;
  }
  if (isObject(part.functionResponse)) {
    const fr = part.functionResponse;
    const block: Block = { kind: 'tool_result', text: resultText(part).text, toolName: str(fr.name) ?? 'unknown' };
    if (str(fr.id)) block.toolCallId = fr.id as string;
    return block;
  }
  const code = isObject(part.executableCode) ? str(part.executableCode.code) : undefined;
  const output = isObject(part.codeExecutionResult) ? str(part.codeExecutionResult.output) : undefined;
  const text = code ?? output;
  return text ? { kind: 'text', text } : undefined;
}

/**
 * `displayContent` is what the person typed when `content` also holds expanded text (referenced files): the
 * typed parts lead, the other content parts are kept marked as expanded context.
 */
function withDisplayContent(content: Block[], display: unknown): Block[] {
  if (display === undefined || display === null) return content;
  const typed = contentBlocks(display);
  if (typed.length === 0) return content;
  const typedTexts = new Set(typed.map((b) => b.text));
  const expanded = content.filter((b) => !(b.kind === 'text' && typedTexts.has(b.text)));
  for (const b of expanded) if (b.kind === 'text') b.noise = 'expanded_content';
  return [...typed, ...expanded];
}

/** A tool call's display text when it recorded no result: a string, or the diff of a file edit. */
function displayText(display: unknown): string | undefined {
  if (typeof display === 'string') return display || undefined;
  return isObject(display) ? str(display.fileDiff) || undefined : undefined;
}

function thoughtBlocks(thoughts: unknown): Block[] {
  const blocks: Block[] = [];
  for (const t of arr(thoughts)) {
    if (typeof t === 'string') {
      if (t.trim()) blocks.push({ kind: 'thinking', text: t });
      continue;
    }
    if (!isObject(t)) continue;
    const subject = str(t.subject)?.trim();
    const description = str(t.description)?.trim() ?? '';
    const text = subject ? (description ? `${subject}: ${description}` : subject) : description;
    if (text) blocks.push({ kind: 'thinking', text });
  }
  return blocks;
}

/** Text of a tool result: the functionResponse parts' `output` (or `error`), else compact JSON. */
export function resultText(result: unknown): { text: string; hasError: boolean } {
  if (typeof result === 'string') return { text: result, hasError: false };
  const texts: string[] = [];
  let hasError = false;
  for (const part of Array.isArray(result) ? result : [result]) {
    if (!isObject(part)) continue;
    const fr = isObject(part.functionResponse) ? part.functionResponse : undefined;
    const response = fr && isObject(fr.response) ? fr.response : undefined;
    if (response) {
      if (response.error !== undefined) hasError = true;
      const out = str(response.output) ?? str(response.error) ?? str(response.content);
      texts.push(out ?? compactJson(response));
    } else if (str(part.text) !== undefined) {
      texts.push(part.text as string);
    } else if (!fr) {
      texts.push(compactJson(part));
    }
  }
  return { text: texts.join('\n'), hasError };
}

function geminiUsage(tokens: unknown, apiMessageId: string, model?: string): TokenUsage | undefined {
  if (!isObject(tokens)) return undefined;
  const input = num(tokens.input) ?? 0;
  const cached = num(tokens.cached) ?? 0;
  const usage: TokenUsage = {
    apiMessageId,
    // Gemini's prompt count includes cached tokens; tool-use prompt tokens are input too; thoughts are output.
    inputTokens: Math.max(0, input - cached) + (num(tokens.tool) ?? 0),
    outputTokens: (num(tokens.output) ?? 0) + (num(tokens.thoughts) ?? 0),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
  if (model) usage.model = model;
  return usage;
}

/** Context Gemini CLI adds as user parts (its session context, hook output): not typed by a person. */
const INJECTED = /^\s*<(session_context|hook_context)>/;

/**
 * Marks injected parts of a user record; true when nothing else was typed (the record is context). A part
 * holding the context and then the typed prompt (`<hook_context>…</hook_context>\n\nquestion`) is split
 * in two, in place, so the prompt stays a prompt.
 */
function markInjected(blocks: Block[]): boolean {
  let typed = false;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    const tag = b.kind === 'text' ? INJECTED.exec(b.text)?.[1] : undefined;
    if (!tag) {
      if (b.kind === 'text' && !b.noise) typed = true;
      continue;
    }
    b.noise = tag;
    const close = b.text.indexOf(`</${tag}>`);
    const rest = close < 0 ? '' : b.text.slice(close + tag.length + 3).trim();
    if (rest === '' || INJECTED.test(rest)) continue;
    const { noise: _noise, ...typedPart } = b;
    blocks.splice(i + 1, 0, { ...typedPart, text: rest });
    b.text = b.text.slice(0, close + tag.length + 3);
  }
  return !typed && blocks.some((b) => b.noise === 'session_context' || b.noise === 'hook_context');
}

/** The MCP server of a tool call, from its display name `tool (server MCP Server)`. */
function mcpServerOf(call: Json): string | undefined {
  return /\(([^()\s]+) MCP Server\)$/.exec(str(call.displayName) ?? '')?.[1];
}

const KINDS: Record<string, [MessageRole, MessageKind]> = {
  user: ['user', 'prompt'],
  gemini: ['assistant', 'response'],
  info: ['system', 'system'],
  warning: ['system', 'system'],
  error: ['system', 'error'],
};

/** Converts one message record; returns undefined for an unknown `type`. */
export function convertGeminiRecord(
  record: Json,
  sessionKey: string,
  key: string,
  line: number,
): ParsedMessage[] | undefined {
  const type = str(record.type) ?? '';
  const mapping = KINDS[type];
  if (!mapping) return undefined;
  const [role, mappedKind] = mapping;
  let kind = mappedKind;
  const timestamp = str(record.timestamp);
  const model = str(record.model);
  const blocks: Block[] = [];
  if (type === 'gemini') blocks.push(...thoughtBlocks(record.thoughts));
  const content = withDisplayContent(contentBlocks(record.content), record.displayContent);
  if (role === 'system') for (const b of content) if (b.kind === 'text') b.kind = 'system';
  if (type === 'user' && markInjected(content)) kind = 'meta';
  // Gemini CLI sends function responses back as a user record: tool output, not a prompt.
  if (type === 'user' && content.length > 0 && content.every((b) => b.kind === 'tool_result')) kind = 'tool_output';
  blocks.push(...content);
  const results: ParsedMessage[] = [];
  arr(record.toolCalls).forEach((call, i) => {
    if (!isObject(call)) return;
    const name = str(call.name) ?? 'unknown';
    const callId = str(call.id) ?? `${key}:call:${i}`;
    const input = call.args ?? {};
    const status = str(call.status);
    const block: Block = {
      kind: 'tool_call',
      text: compactJson(input),
      toolName: name,
      toolCallId: callId,
      toolInput: input,
    };
    if (status) block.meta = { status };
    if (str(call.agentId)) block.meta = { ...block.meta, agentId: call.agentId };
    const server = mcpServerOf(call);
    if (server) block.meta = { ...block.meta, mcpServer: server };
    blocks.push(block);
    const display = displayText(call.resultDisplay);
    if ((call.result === undefined || call.result === null) && display === undefined) return;
    const { text, hasError } =
      call.result === undefined || call.result === null
        ? { text: display ?? '', hasError: false }
        : resultText(call.result);
    const isError = hasError || status === 'error' || status === 'cancelled';
    const resultMsg: ParsedMessage = {
      sessionKey,
      key: `${key}:result:${callId}`,
      role: 'tool',
      kind: 'tool_output',
      line,
      blocks: [
        {
          kind: 'tool_result',
          text,
          toolName: name,
          toolCallId: callId,
          isError,
          ...(status || server
            ? { meta: { ...(status ? { status } : {}), ...(server ? { mcpServer: server } : {}) } }
            : {}),
        },
      ],
    };
    const ts = str(call.timestamp) ?? timestamp;
    if (ts) resultMsg.timestamp = ts;
    results.push(resultMsg);
  });
  const message: ParsedMessage = { sessionKey, key, role, kind, line, blocks };
  if (timestamp) message.timestamp = timestamp;
  if (model) message.model = model;
  const usage = type === 'gemini' ? geminiUsage(record.tokens, key, model) : undefined;
  if (usage) message.usage = usage;
  return [message, ...results];
}
