// Owns turning a file-editing tool call into diff hunks: Claude Edit/MultiEdit/Write/NotebookEdit, Gemini
// replace/write_file, OpenCode edit/write and Codex apply_patch (also inside shell calls). Lines carry a
// one-character op: '+' added, '-' removed, ' ' context. Line numbers are known only when the tool
// wrote a whole file (a patch of an edit is relative to its snippet, not to the file).
import { structuredPatch } from 'diff';
import { filePathOf, findPatch } from '../../shared/tool-calls/edit-stats.js';
import { classifyTool, shellCommand } from '../../shared/tool-calls/tool-classes.js';

type EditOp = 'create' | 'edit' | 'delete';

export interface EditHunk {
  path: string;
  op: EditOp;
  /** '+text', '-text' or ' text'. */
  lines: string[];
  /** The text the edit left behind (to find where it is in today's file), when the tool said it. */
  newText?: string;
  /** 1-based first line of the new text in the file, when the tool wrote the whole file. */
  startLine?: number;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Diff lines between two snippets (no file headers), with up to 3 lines of context. */
function diffLines(oldText: string, newText: string): string[] {
  const patch = structuredPatch('a', 'b', oldText, newText, '', '', { context: 3 });
  const lines: string[] = [];
  for (const hunk of patch.hunks) lines.push(...hunk.lines.filter((l) => !l.startsWith('\\')));
  return lines;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Hunks of a Codex `*** Begin Patch` body, one per file. */
function patchHunks(patch: string): EditHunk[] {
  const hunks: EditHunk[] = [];
  let current: EditHunk | undefined;
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      const op: EditOp = header[1] === 'Add' ? 'create' : header[1] === 'Delete' ? 'delete' : 'edit';
      current = { path: header[2]!.trim(), op, lines: [] };
      if (op === 'create') current.startLine = 1;
      hunks.push(current);
      continue;
    }
    if (!current || line.startsWith('***')) continue;
    if (line.startsWith('@@')) continue;
    if (line.startsWith('+') || line.startsWith('-') || line.startsWith(' ')) current.lines.push(line);
  }
  for (const h of hunks) {
    const added = h.lines.filter((l) => !l.startsWith('-')).map((l) => l.slice(1));
    if (added.length > 0) h.newText = added.join('\n');
  }
  return hunks;
}

function replaceHunk(path: string, oldText: string, newText: string): EditHunk {
  const hunk: EditHunk = { path, op: oldText === '' ? 'create' : 'edit', lines: diffLines(oldText, newText) };
  if (newText !== '') hunk.newText = newText;
  return hunk;
}

function wholeFileHunk(path: string, content: string): EditHunk {
  return { path, op: 'create', lines: splitLines(content).map((l) => '+' + l), newText: content, startLine: 1 };
}

/** The hunks a tool call wrote (empty for calls that edit nothing). */
export function editHunks(toolName: string | null, input: unknown): EditHunk[] {
  const name = (toolName ?? '').toLowerCase();
  const cls = classifyTool(toolName);
  if (cls === 'bash' || name === 'apply_patch' || name === 'patch' || cls !== 'edit' || !isObject(input)) {
    const source = cls === 'bash' ? (shellCommand(input) ?? input) : input;
    const patch = findPatch(source);
    return patch ? patchHunks(patch) : [];
  }
  const path = filePathOf(input);
  if (!path) return [];
  switch (name) {
    case 'multiedit': {
      const edits = Array.isArray(input.edits) ? input.edits.filter(isObject) : [];
      return edits.map((e) =>
        replaceHunk(path, str(e.old_string) ?? str(e.oldString) ?? '', str(e.new_string) ?? str(e.newString) ?? ''),
      );
    }
    case 'write':
    case 'write_file':
      return [wholeFileHunk(path, str(input.content) ?? '')];
    case 'notebookedit':
      return [replaceHunk(path, '', str(input.new_source) ?? '')];
    default: {
      const oldText = str(input.old_string) ?? str(input.oldString) ?? '';
      const newText = str(input.new_string) ?? str(input.newString) ?? str(input.content) ?? '';
      return [replaceHunk(path, oldText, newText)];
    }
  }
}

/** The 1-based line range `newText` occupies in `fileText`, if it occurs there (first occurrence). */
export function locateInFile(fileText: string, newText: string): { start: number; end: number } | undefined {
  const needle = newText.replace(/\n+$/, '');
  if (needle.trim() === '') return undefined;
  const at = fileText.indexOf(needle);
  if (at === -1) return undefined;
  let start = 1;
  for (let i = fileText.indexOf('\n'); i !== -1 && i < at; i = fileText.indexOf('\n', i + 1)) start++;
  return { start, end: start + splitLines(needle).length - 1 };
}
