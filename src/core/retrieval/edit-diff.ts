// Owns how `read` shows a file edit: a unified diff of the old and new strings (Claude Edit/MultiEdit,
// Gemini replace, OpenCode edit), the added lines of a written file (Write, write_file), or the patch as
// given (Codex apply_patch). Hunk line numbers count within the edited strings: the file is not stored.
import { createRequire } from 'node:module';
import { classifyTool } from '../../shared/tool-calls/tool-classes.js';

type StructuredPatch = typeof import('diff').structuredPatch;

/** The diff library loads only when an edit changes lines on both sides (it takes tens of ms to load). */
let structuredPatch: StructuredPatch | undefined;
function diffLibrary(): StructuredPatch {
  structuredPatch ??= (
    createRequire(import.meta.url)('diff/lib/patch/create.js') as { structuredPatch: StructuredPatch }
  ).structuredPatch;
  return structuredPatch;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

const withNewline = (s: string): string => (s === '' || s.endsWith('\n') ? s : s + '\n');

const CONTEXT = 3;

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/**
 * The one hunk of an edit whose changed lines (between a shared start and end) have no line in common:
 * every Write, and most Edits (lines only added, only removed, or replaced). Written as the diff library
 * would write it, without computing a diff.
 */
function contiguousHunk(a: string[], b: string[], head: number, tail: number): Hunk[] {
  const removed = a.slice(head, a.length - 1 - tail);
  const added = b.slice(head, b.length - 1 - tail);
  if (removed.length === 0 && added.length === 0) return [];
  const before = a.slice(Math.max(0, head - CONTEXT), head);
  const after = a.slice(a.length - 1 - tail, Math.min(a.length - 1, a.length - 1 - tail + CONTEXT));
  const start = head - before.length + 1;
  return [
    {
      oldStart: start,
      oldLines: before.length + removed.length + after.length,
      newStart: start,
      newLines: before.length + added.length + after.length,
      lines: [
        ...before.map((l) => ` ${l}`),
        ...removed.map((l) => `-${l}`),
        ...added.map((l) => `+${l}`),
        ...after.map((l) => ` ${l}`),
      ],
    },
  ];
}

/**
 * True when no changed line equals a line of the other side's change or of the context around them: the
 * only lines both sides share are the context, so there is one shortest diff and the library would
 * write exactly that hunk (where a line could match in two places, the library decides).
 */
function unambiguous(a: string[], b: string[], head: number, tail: number): boolean {
  const removed = a.slice(head, a.length - 1 - tail);
  const added = b.slice(head, b.length - 1 - tail);
  const end = a.length - 1 - tail;
  const context = [
    ...a.slice(Math.max(0, head - CONTEXT), head),
    ...a.slice(end, Math.min(a.length - 1, end + CONTEXT)),
  ];
  const seen = new Set(context);
  for (const l of removed) if (seen.has(l)) return false;
  const old = new Set(removed);
  for (const l of added) if (seen.has(l) || old.has(l)) return false;
  return true;
}

/**
 * The hunks turning `before` into `after` (3 lines of context), as unified diff lines. Lines both sides
 * share at the start and end, beyond the context, are cut before diffing: the hunks are the same, and
 * the diff's cost grows with the lines it is given.
 */
function hunks(before: string, after: string): string[] {
  const a = withNewline(before).split('\n');
  const b = withNewline(after).split('\n');
  let head = 0;
  while (head < a.length - 1 && head < b.length - 1 && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - 1 - head && tail < b.length - 1 - head && a[a.length - 2 - tail] === b[b.length - 2 - tail])
    tail++;
  let found: Hunk[];
  let skip = 0;
  if (unambiguous(a, b, head, tail)) {
    found = contiguousHunk(a, b, head, tail);
  } else {
    skip = Math.max(0, head - CONTEXT);
    const keepTail = Math.max(0, tail - CONTEXT);
    const slice = (lines: string[]): string =>
      lines
        .slice(skip, lines.length - 1 - keepTail)
        .map((l) => `${l}\n`)
        .join('');
    found = diffLibrary()('a', 'b', slice(a), slice(b), '', '', { context: CONTEXT }).hunks;
  }
  const out: string[] = [];
  for (const h of found) {
    // An empty side is numbered from the line before it, as diff -u does (@@ -0,0 +1,2 @@).
    const from = (h.oldLines === 0 ? h.oldStart - 1 : h.oldStart) + skip;
    const to = (h.newLines === 0 ? h.newStart - 1 : h.newStart) + skip;
    out.push(`@@ -${from},${h.oldLines} +${to},${h.newLines} @@`);
    out.push(...h.lines.filter((l) => !l.startsWith('\\')));
  }
  return out;
}

function patchText(input: unknown): string | undefined {
  if (typeof input === 'string' && input.includes('*** Begin Patch')) return input;
  if (isObject(input)) {
    for (const key of ['input', 'patch', 'command']) {
      const v = input[key];
      if (typeof v === 'string' && v.includes('*** Begin Patch')) return v;
      if (Array.isArray(v)) {
        const body = v.find((p): p is string => typeof p === 'string' && p.includes('*** Begin Patch'));
        if (body) return body;
      }
    }
  }
  return undefined;
}

/** A unified diff for an edit tool's input, or undefined when the tool is no file edit or its input is unknown. */
export function editDiff(toolName: string | null, input: unknown): string | undefined {
  if (classifyTool(toolName) !== 'edit' && patchText(input) === undefined) return undefined;
  const patch = patchText(input);
  if (patch !== undefined) return patch.trim();
  if (!isObject(input)) return undefined;
  const path = str(input.file_path) ?? str(input.filePath) ?? str(input.path) ?? str(input.notebook_path) ?? '(file)';
  const pairs: [string, string][] = [];
  const oldString = str(input.old_string) ?? str(input.oldString);
  const newString = str(input.new_string) ?? str(input.newString);
  if (oldString !== undefined && newString !== undefined) pairs.push([oldString, newString]);
  if (Array.isArray(input.edits)) {
    for (const e of input.edits) {
      const o = isObject(e) ? (str(e.old_string) ?? str(e.oldString)) : undefined;
      const n = isObject(e) ? (str(e.new_string) ?? str(e.newString)) : undefined;
      if (o !== undefined && n !== undefined) pairs.push([o, n]);
    }
  }
  if (pairs.length > 0) return [`--- ${path}`, `+++ ${path}`, ...pairs.flatMap(([o, n]) => hunks(o, n))].join('\n');
  const content = str(input.content) ?? str(input.new_source);
  if (content !== undefined) return [`--- /dev/null`, `+++ ${path}`, ...hunks('', content)].join('\n');
  return undefined;
}
