// Owns what a single tool call contributes to a session's mechanical statistics: lines added/removed and
// files touched (Claude Edit/MultiEdit/Write/NotebookEdit, Codex apply_patch, Gemini replace/write_file/edit,
// OpenCode edit/write, Puffin filesModified) and git commits run through a shell.
import { classifyTool, shellCommand } from './tool-classes.js';

export interface FileEdit {
  path: string;
  added: number;
  removed: number;
}

export interface CallEffects {
  edits: FileEdit[];
  commits: number;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Lines in a text; a trailing newline does not open a new line; '' has none. */
export function countLines(text: string | undefined): number {
  if (!text) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/**
 * SEARCH/REPLACE diffs: Cline's `replace_in_file` (`------- SEARCH` … `=======` … `+++++++ REPLACE`, or
 * `<<<<<<<` / `>>>>>>>` markers) and Roo Code's `apply_diff` (a `:start_line:` header and `-------` first).
 */
const SEARCH_REPLACE =
  /^(?:-{3,}|<{3,}) SEARCH[ \t]*\r?\n([\s\S]*?)^={3,}[ \t]*\r?\n([\s\S]*?)^(?:\+{3,}|>{3,}) REPLACE/gm;
const ROO_HEADER = /^(?::[a-z_]+:.*\r?\n)*-{3,}[ \t]*\r?\n/;

/** Lines removed (search parts) and added (replace parts) by every block of a SEARCH/REPLACE diff. */
export function searchReplaceLines(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const m of diff.matchAll(SEARCH_REPLACE)) {
    removed += countLines((m[1] ?? '').replace(ROO_HEADER, ''));
    added += countLines(m[2]);
  }
  return { added, removed };
}

const COMMIT = /\bgit\s+(?:-[cC]\s+\S+\s+|--[\w-]+(?:=\S+)?\s+)*commit\b/g;

/** Number of `git commit` invocations in a shell command. */
export function countCommits(command: string): number {
  return command.match(COMMIT)?.length ?? 0;
}

/** Parses a Codex `*** Begin Patch` body into per-file line counts. */
export function parseApplyPatch(patch: string): FileEdit[] {
  const edits: FileEdit[] = [];
  let current: FileEdit | undefined;
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      current = { path: header[2]!.trim(), added: 0, removed: 0 };
      edits.push(current);
      continue;
    }
    if (!current || line.startsWith('***')) continue;
    if (line.startsWith('+')) current.added++;
    else if (line.startsWith('-')) current.removed++;
  }
  return edits;
}

/** The first string anywhere in `value` (depth-limited) that holds a patch body. */
export function findPatch(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') {
    const at = value.indexOf('*** Begin Patch');
    return at === -1 ? undefined : value.slice(at);
  }
  if (depth > 3) return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const p = findPatch(v, depth + 1);
      if (p) return p;
    }
  } else if (isObject(value)) {
    for (const v of Object.values(value)) {
      const p = findPatch(v, depth + 1);
      if (p) return p;
    }
  }
  return undefined;
}

/** The path an edit or write tool's input names, under any client's field name. */
export function filePathOf(input: Json): string | undefined {
  return (
    str(input.file_path) ??
    str(input.filePath) ??
    str(input.notebook_path) ??
    str(input.path) ??
    str(input.absolute_path) ??
    str(input.absolutePath)
  );
}

function editFromStrings(path: string | undefined, oldText: unknown, newText: unknown): FileEdit[] {
  if (!path) return [];
  return [{ path, added: countLines(str(newText)), removed: countLines(str(oldText)) }];
}

/** What one tool call did: file edits (from its input) and commits (from shell commands). */
export function callEffects(toolName: string | null, input: unknown): CallEffects {
  const effects: CallEffects = { edits: [], commits: 0 };
  const cls = classifyTool(toolName);
  if (cls === 'bash') {
    const command = shellCommand(input);
    if (command) effects.commits = countCommits(command);
    const patch = findPatch(input);
    if (patch) effects.edits = parseApplyPatch(patch);
    return effects;
  }
  const name = (toolName ?? '').toLowerCase();
  if (name === 'apply_patch' || name === 'patch') {
    const patch = findPatch(input);
    if (patch) effects.edits = parseApplyPatch(patch);
    return effects;
  }
  if (cls !== 'edit' || !isObject(input)) {
    // Unknown tools may still carry a patch (custom tools wrapping apply_patch).
    const patch = typeof input === 'string' ? findPatch(input) : undefined;
    if (patch) effects.edits = parseApplyPatch(patch);
    return effects;
  }
  const path = filePathOf(input);
  // Counts an adapter read from the agent's own diff (Cursor) instead of old and new texts.
  if (path && typeof input.lines_added === 'number' && typeof input.lines_removed === 'number') {
    effects.edits = [{ path, added: input.lines_added, removed: input.lines_removed }];
    return effects;
  }
  switch (name) {
    case 'multiedit': {
      const edits = Array.isArray(input.edits) ? input.edits.filter(isObject) : [];
      let added = 0;
      let removed = 0;
      for (const e of edits) {
        added += countLines(str(e.new_string) ?? str(e.newString));
        removed += countLines(str(e.old_string) ?? str(e.oldString));
      }
      if (path) effects.edits = [{ path, added, removed }];
      break;
    }
    case 'replace_in_file':
    case 'apply_diff':
      if (path) effects.edits = [{ path, ...searchReplaceLines(str(input.diff) ?? '') }];
      break;
    case 'str_replace_editor':
    case 'developer__text_editor': {
      // Copilot CLI's and Goose's editor tools: `command` says what it did (view, create/write, str_replace, insert).
      const command = str(input.command);
      if (!path || command === 'view' || command === 'undo_edit') break;
      if (command === 'str_replace') effects.edits = editFromStrings(path, input.old_str, input.new_str);
      else effects.edits = [{ path, added: countLines(str(input.file_text) ?? str(input.new_str)), removed: 0 }];
      break;
    }
    case 'strreplacefile': {
      // Kimi CLI: `edit` is one `{old, new}` or a list of them.
      const edits = (Array.isArray(input.edit) ? input.edit : [input.edit]).filter(isObject);
      const added = edits.reduce((n, e) => n + countLines(str(e.new)), 0);
      const removed = edits.reduce((n, e) => n + countLines(str(e.old)), 0);
      if (path) effects.edits = [{ path, added, removed }];
      break;
    }
    case 'create':
      if (path) effects.edits = [{ path, added: countLines(str(input.file_text) ?? str(input.content)), removed: 0 }];
      break;
    case 'write':
    case 'write_file':
    case 'write_to_file':
    case 'writefile':
    // VS Code Copilot Chat's text edits: the replacement texts are known, the replaced lines are not.
    case 'texteditgroup':
      if (path) effects.edits = [{ path, added: countLines(str(input.content)), removed: 0 }];
      break;
    case 'notebookedit':
      if (path) effects.edits = [{ path, added: countLines(str(input.new_source)), removed: 0 }];
      break;
    default: // edit, replace
      effects.edits = editFromStrings(
        path,
        input.old_string ?? input.oldString ?? input.old_str ?? input.oldText ?? input.before,
        input.new_string ?? input.newString ?? input.new_str ?? input.newText ?? input.content ?? input.after,
      );
  }
  return effects;
}

/** Puffin responses list the files they modified in message meta (`filesModified[{path, action}]`). */
export function metaFileEdits(meta: unknown): FileEdit[] {
  if (!isObject(meta) || !Array.isArray(meta.filesModified)) return [];
  const edits: FileEdit[] = [];
  for (const f of meta.filesModified) {
    const path = isObject(f) ? str(f.path) : str(f);
    if (path) edits.push({ path, added: 0, removed: 0 });
  }
  return edits;
}
