// Owns turning one Cline / Roo Code / Kilo Code history message into blocks: typed requests unwrapped
// from `<task>` / `<feedback>` / `<user_message>`, tool results (`[tool for 'x'] Result:` text or
// `tool_result` parts), injected `<environment_details>` as noise, thinking and `tool_use` calls.
import type { Block, MessageKind } from '../../shared/model.js';
import { stringifyJson } from '../../shared/bounded-json.js';
import { isObject, str, type Json } from './schema.js';

/** `[read_file for 'src/a.ts'] Result:` and `[subagents] Result:`: Cline's text rendering of a tool result. */
const RESULT_HEAD = /^\[([\w.-]+)(?: for [\s\S]*?)?\] Result:[ \t]*\n?/;
/** Wrappers around what a person typed: the task, feedback on a step, a message sent on resuming. */
const TYPED = /<(task|feedback|user_message)>\n?([\s\S]*?)\n?<\/\1>/;
const NOISE_TAGS: Array<[RegExp, string]> = [
  [/^<environment_details>/, 'environment_details'],
  [/^\[TASK RESUMPTION\]/, 'task_resumption'],
  [/^<explicit_instructions\b/, 'explicit_instructions'],
  [/^\[ERROR\]/, 'harness_error'],
  [/^# task_progress\b/, 'task_progress'],
  [/^# TODO LIST UPDATE REQUIRED/, 'task_progress'],
  [/^\(The user did not provide a new message/, 'harness'],
];

export interface Converted {
  blocks: Block[];
  kind: MessageKind;
}

function partText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (isObject(p) ? (str(p.text) ?? '') : ''))
    .filter((t) => t !== '')
    .join('\n');
}

function imageBlock(part: Json): Block {
  const source = isObject(part.source) ? part.source : {};
  const mediaType = str(source.media_type);
  return { kind: 'image', text: '', meta: mediaType ? { mediaType } : {} };
}

/** One user text part: a typed request (added to `typed`), a tool result, injected context, or plain text. */
function userText(text: string, blocks: Block[], typed: Set<Block>): void {
  const result = RESULT_HEAD.exec(text);
  if (result) {
    blocks.push({ kind: 'tool_result', text: text.slice(result[0].length), toolName: result[1] as string });
    return;
  }
  const trimmed = text.trimStart();
  const noise = NOISE_TAGS.find(([re]) => re.test(trimmed))?.[1];
  const wrapped = TYPED.exec(text)?.[2]?.trim();
  if (noise) blocks.push({ kind: 'text', text, noise });
  if (wrapped) {
    const block: Block = { kind: 'text', text: wrapped };
    typed.add(block);
    blocks.push(block);
  } else if (!noise) blocks.push({ kind: 'text', text });
}

export function userBlocks(content: unknown, toolNames: Map<string, string>, skip: (t: string) => void): Converted {
  const blocks: Block[] = [];
  const wrapped = new Set<Block>();
  if (typeof content === 'string') userText(content, blocks, wrapped);
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (!isObject(part)) {
        skip('part:not_object');
        continue;
      }
      const type = str(part.type);
      if (type === 'image') blocks.push(imageBlock(part));
      else if (type === 'tool_result') {
        const id = str(part.tool_use_id);
        const block: Block = { kind: 'tool_result', text: partText(part.content) };
        if (id) {
          block.toolCallId = id;
          const name = toolNames.get(id);
          if (name) block.toolName = name;
        }
        if (part.is_error === true) block.isError = true;
        blocks.push(block);
      } else if (str(part.text) !== undefined) userText(str(part.text) as string, blocks, wrapped);
      else skip(`user:${type ?? 'untyped'}`);
    }
  }
  const results = blocks.some((b) => b.kind === 'tool_result');
  // Beside a wrapped request or a tool result, unwrapped text is the harness's (todo-list reminders).
  if (wrapped.size > 0 || results) {
    for (const b of blocks) if (b.kind === 'text' && b.noise === undefined && !wrapped.has(b)) b.noise = 'harness';
  }
  const typed = blocks.some((b) => b.kind === 'image' || (b.kind === 'text' && b.noise === undefined));
  return { blocks, kind: typed ? 'prompt' : results ? 'tool_output' : 'meta' };
}

export function assistantBlocks(
  content: unknown,
  toolNames: Map<string, string>,
  skip: (t: string) => void,
): Converted {
  const blocks: Block[] = [];
  if (typeof content === 'string') {
    if (content !== '') blocks.push({ kind: 'text', text: content });
    return { blocks, kind: 'response' };
  }
  for (const part of Array.isArray(content) ? content : []) {
    if (!isObject(part)) {
      skip('part:not_object');
      continue;
    }
    const type = str(part.type);
    if (type === 'tool_use') {
      const name = str(part.name) ?? 'unknown';
      const id = str(part.id) ?? str(part.call_id) ?? '';
      if (id) toolNames.set(id, name);
      const input = part.input ?? {};
      blocks.push({
        kind: 'tool_call',
        text: stringifyJson(input) ?? '',
        toolName: name,
        toolCallId: id,
        toolInput: input,
      });
    } else if (type === 'thinking' || type === 'reasoning') {
      const text = str(part.thinking) ?? str(part.text) ?? '';
      if (text.trim()) blocks.push({ kind: 'thinking', text });
    } else if (str(part.text) !== undefined) {
      if ((part.text as string).trim()) blocks.push({ kind: 'text', text: part.text as string });
    } else skip(`assistant:${type ?? 'untyped'}`);
  }
  return { blocks, kind: 'response' };
}
