// Owns the shapes of a Zed agent thread (the JSON in `threads.data`, zstd-compressed or plain, format
// 0.3): `messages` of `{User: {id, content}}` and `{Agent: {content, tool_results}}`, where content items
// are `{Text}`, `{Thinking: {text}}`, `{Mention: {uri, content}}`, `{Image}` or `{ToolUse: {id, name, input}}`.
import { dirname, isAbsolute, join } from 'node:path';
import { decompress } from 'fzstd';
import type { Block } from '../../shared/model.js';
import { isObject, num, str, type Json } from '../json-guards.js';

export { isObject, num, str, type Json };

/** The thread JSON of a `data` column: `zstd` frames or plain `json`. */
export function threadJson(data: unknown, dataType: unknown): Json | undefined {
  if (!Buffer.isBuffer(data) && typeof data !== 'string') return undefined;
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    const text =
      dataType === 'zstd' ? Buffer.from(decompress(new Uint8Array(bytes))).toString('utf8') : bytes.toString('utf8');
    const value = JSON.parse(text) as unknown;
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A tool result's text: `content` as `{Text}` or a list of them, else `output` when it is a string. */
function resultText(result: Json): string {
  const content = result.content;
  if (isObject(content) && typeof content.Text === 'string') return content.Text;
  if (Array.isArray(content))
    return content.map((c) => (isObject(c) && typeof c.Text === 'string' ? c.Text : '')).join('');
  return typeof result.output === 'string' ? result.output : '';
}

/** Lines added and removed by a unified diff (headers excluded). */
function diffLines(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added++;
    else if (line.startsWith('-') && !line.startsWith('---')) removed++;
  }
  return { added, removed };
}

function toolBlocks(use: Json, results: Json, project: string | undefined): Block[] {
  const name = str(use.name) ?? 'tool';
  const id = str(use.id);
  const input: Json = isObject(use.input) ? { ...use.input } : {};
  const result = id && isObject(results[id]) ? (results[id] as Json) : undefined;
  // Zed's edit_file input names the file and the intent; the change itself is in the result's diff.
  const output = isObject(result?.output) ? result.output : undefined;
  if (name === 'edit_file' && typeof output?.diff === 'string') {
    const lines = diffLines(output.diff);
    Object.assign(input, { lines_added: lines.added, lines_removed: lines.removed });
  }
  // Its paths start with the worktree's folder name: resolved beside the worktree.
  if (name === 'edit_file' && typeof input.path === 'string' && project && !isAbsolute(input.path))
    input.file_path = join(dirname(project), input.path);
  const call: Block = { kind: 'tool_call', text: JSON.stringify(input), toolName: name, toolInput: input };
  if (id) call.toolCallId = id;
  const blocks: Block[] = [call];
  if (result) {
    const block: Block = { kind: 'tool_result', text: resultText(result), toolName: name };
    if (id) block.toolCallId = id;
    if (result.is_error === true) block.isError = true;
    blocks.push(block);
  }
  return blocks;
}

/** The blocks of a message's `content` items; unknown items are counted by `skip`. */
export function contentBlocks(
  content: unknown,
  results: Json,
  project: string | undefined,
  skip: (type: string) => void,
): Block[] {
  const blocks: Block[] = [];
  for (const item of Array.isArray(content) ? content : []) {
    if (!isObject(item)) continue;
    const [type, value] = Object.entries(item)[0] ?? ['empty', undefined];
    if (type === 'Text' && typeof value === 'string') {
      if (value.trim()) blocks.push({ kind: 'text', text: value });
    } else if (type === 'Thinking' && isObject(value)) {
      const text = str(value.text);
      if (text?.trim()) blocks.push({ kind: 'thinking', text });
    } else if (type === 'Mention' && isObject(value)) {
      blocks.push({ kind: 'document', text: '', meta: { uri: value.uri } });
    } else if (type === 'Image') {
      blocks.push({ kind: 'image', text: '' });
    } else if (type === 'ToolUse' && isObject(value)) {
      blocks.push(...toolBlocks(value, results, project));
    } else skip(`content:${type}`);
  }
  return blocks;
}
