// Owns the shapes of Cursor's chat records read defensively: a bubble (`type` 1 is the person, 2 the agent)
// gives text, thinking and a tool call (`toolFormerData`: name, `rawArgs`/`params` and `result` as JSON
// strings). Edits carry their diff in the result (`diff.chunks`) or `additionalData.precomputedDiff`.
import { isAbsolute, join } from 'node:path';
import type { Block } from '../../shared/model.js';
import { isObject, num, str, type Json } from '../json-guards.js';

export { isObject, num, str, type Json };

export function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const jsonObject = (text: unknown): Json | undefined => {
  const v = isObject(text) ? text : parseJson(text);
  return isObject(v) ? v : undefined;
};

const YEAR_2000 = Date.UTC(2000, 0, 1);

/** An epoch in ms or an ISO string as ISO, else undefined (`clientStartTime` counts from the window's start). */
export function isoTime(value: unknown): string | undefined {
  const ms = typeof value === 'string' ? Date.parse(value) : num(value);
  if (ms === undefined || Number.isNaN(ms) || ms < YEAR_2000 || ms > 8.64e15) return undefined;
  return new Date(ms).toISOString();
}

export function bubbleTime(bubble: Json): string | undefined {
  const timing = isObject(bubble.timingInfo) ? bubble.timingInfo : {};
  return isoTime(bubble.createdAt) ?? isoTime(timing.clientRpcSendTime) ?? isoTime(timing.clientStartTime);
}

const EDIT_TOOLS = new Set(['edit_file', 'edit_file_v2', 'search_replace', 'write', 'multiedit', 'delete_file']);

interface DiffLines {
  added: number;
  removed: number;
  /** The removed and the added lines, shown as the edit's old and new text. */
  oldText: string;
  newText: string;
}

/** Lines added and removed by an edit, from the result's diff chunks or the precomputed diff. */
function diffLines(result: Json | undefined, extra: Json): DiffLines | undefined {
  const chunks = isObject(result?.diff) && Array.isArray(result.diff.chunks) ? result.diff.chunks : undefined;
  const removedLines: string[] = [];
  const addedLines: string[] = [];
  let added = 0;
  let removed = 0;
  if (chunks) {
    for (const c of chunks.filter(isObject)) {
      added += num(c.linesAdded) ?? 0;
      removed += num(c.linesRemoved) ?? 0;
      // `diffString` lines start with "- ", "+ " or two spaces (context).
      for (const line of (str(c.diffString) ?? '').split('\n')) {
        if (line.startsWith('- ')) removedLines.push(line.slice(2));
        else if (line.startsWith('+ ')) addedLines.push(line.slice(2));
      }
    }
  } else {
    const pre =
      isObject(extra.precomputedDiff) && Array.isArray(extra.precomputedDiff.lines) ? extra.precomputedDiff : 0;
    if (!pre) return undefined;
    for (const l of (pre.lines as unknown[]).filter(isObject)) {
      if (l.type === 'added') addedLines.push(str(l.content) ?? '');
      else if (l.type === 'removed') removedLines.push(str(l.content) ?? '');
    }
    added = addedLines.length;
    removed = removedLines.length;
  }
  return { added, removed, oldText: removedLines.join('\n'), newText: addedLines.join('\n') };
}

function resultText(result: unknown, raw: unknown): string {
  if (isObject(result)) {
    const text = str(result.output) ?? str(result.contents) ?? str(result.content);
    if (text !== undefined) return text;
  }
  return typeof raw === 'string' ? raw : '';
}

/** The tool call (and its result, when it ran) of a bubble's `toolFormerData`; `project` resolves relative paths. */
export function toolBlocks(tool: Json, project: string | undefined): Block[] {
  const name = str(tool.name);
  if (!name) return [];
  const params = jsonObject(tool.params) ?? {};
  // The model's own arguments; Cursor's expanded `params` when it kept none.
  const raw = jsonObject(tool.rawArgs);
  const input: Json = { ...(raw && Object.keys(raw).length > 0 ? raw : params) };
  const extra = isObject(tool.additionalData) ? tool.additionalData : {};
  const result = jsonObject(tool.result);
  if (EDIT_TOOLS.has(name.toLowerCase())) {
    const path = str(input.file_path) ?? str(input.target_file) ?? str(input.path) ?? str(params.relativeWorkspacePath);
    if (path) input.file_path = project && !isAbsolute(path) ? join(project, path) : path;
    if (input.old_string === undefined && typeof params.oldString === 'string') input.old_string = params.oldString;
    if (input.new_string === undefined && typeof params.newString === 'string') input.new_string = params.newString;
    const lines = input.old_string === undefined ? diffLines(result, extra) : undefined;
    if (lines) Object.assign(input, { old_string: lines.oldText, new_string: lines.newText });
    if (lines) Object.assign(input, { lines_added: lines.added, lines_removed: lines.removed });
  }
  const call: Block = { kind: 'tool_call', text: JSON.stringify(input), toolName: name, toolInput: input };
  const id = str(tool.toolCallId);
  if (id) call.toolCallId = id;
  const status = str(tool.status);
  if (status && status !== 'completed' && status !== 'error') call.meta = { status };
  const blocks: Block[] = [call];
  const error = jsonObject(tool.error);
  if (error || status === 'error') {
    const text = str(error?.modelVisibleErrorMessage) ?? str(error?.clientVisibleErrorMessage) ?? 'error';
    blocks.push({ kind: 'tool_result', text, toolName: name, ...(id ? { toolCallId: id } : {}), isError: true });
  } else if (tool.result !== undefined && status !== 'cancelled') {
    const text = resultText(result, tool.result);
    blocks.push({ kind: 'tool_result', text, toolName: name, ...(id ? { toolCallId: id } : {}) });
  }
  return blocks;
}

/** A bubble's blocks: the person's text, or the agent's thinking, text and tool call. */
export function bubbleBlocks(bubble: Json, project: string | undefined): Block[] {
  const blocks: Block[] = [];
  const thinking = isObject(bubble.thinking) ? str(bubble.thinking.text) : undefined;
  if (thinking?.trim()) blocks.push({ kind: 'thinking', text: thinking });
  const text = str(bubble.text);
  if (text?.trim()) blocks.push({ kind: 'text', text });
  if (isObject(bubble.toolFormerData)) blocks.push(...toolBlocks(bubble.toolFormerData, project));
  return blocks;
}
