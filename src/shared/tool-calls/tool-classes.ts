// Owns tool-name classification across agents (shell, web fetch, web search, file edit) and the one-line
// "key input" shown for a tool call (command for shells, file path for edits and reads, pattern, url, ...).

export type ToolClass = 'bash' | 'fetch' | 'search' | 'edit' | 'other';

const BASH = new Set([
  'bash',
  'shell',
  'exec_command',
  'local_shell_call',
  'local_shell',
  'run_shell_command',
  'container.exec',
  'shell_command',
  'execute_command',
  'powershell',
  'run_terminal_cmd',
  'run_terminal_command_v2',
  'terminal',
  'exec',
  'developer__shell',
  'execute',
]);
const FETCH = new Set(['webfetch', 'web_fetch', 'fetchurl']);
const SEARCH = new Set(['websearch', 'web_search', 'google_web_search', 'web_search_call', 'searchweb']);
const EDIT = new Set([
  'edit',
  'multiedit',
  'write',
  'notebookedit',
  'apply_patch',
  'replace',
  'write_file',
  'patch',
  'write_to_file',
  'replace_in_file',
  'apply_diff',
  'create',
  'str_replace_editor',
  'texteditgroup',
  'edit_file',
  'edit_file_v2',
  'search_replace',
  'delete_file',
  'writefile',
  'strreplacefile',
  'developer__text_editor',
]);

/** Classifies a tool name (case-insensitive) into the families the index counts. */
export function classifyTool(name: string | null | undefined): ToolClass {
  if (!name) return 'other';
  const n = name.toLowerCase();
  if (BASH.has(n)) return 'bash';
  if (FETCH.has(n)) return 'fetch';
  if (SEARCH.has(n)) return 'search';
  if (EDIT.has(n)) return 'edit';
  return 'other';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The shell command of a shell-like tool input (string, argv array, or Codex `action.command`). */
export function shellCommand(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!isObject(input)) return undefined;
  const raw = input.command ?? input.cmd ?? (isObject(input.action) ? input.action.command : undefined);
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) {
    const parts = raw.filter((p): p is string => typeof p === 'string');
    // ["bash", "-lc", "<script>"] → the script
    if (parts.length === 3 && /(^|\/)(ba|z)?sh$/.test(parts[0] ?? '') && parts[1]?.startsWith('-')) return parts[2];
    return parts.join(' ');
  }
  return undefined;
}

/** Keys tried, in order, for the key input of any tool. */
const KEY_FIELDS = [
  'command',
  'cmd',
  'file_path',
  'filePath',
  'path',
  'notebook_path',
  'absolute_path',
  'absolutePath',
  'pattern',
  'query',
  'url',
  'prompt',
  'description',
  'skill',
  'name',
];

/** One-line rendering of a tool call's most telling input (whitespace collapsed). */
export function keyInput(toolName: string | null, input: unknown, fallbackText: string): string {
  let value: string | undefined;
  if (classifyTool(toolName) === 'bash') value = shellCommand(input);
  if (value === undefined && typeof input === 'string')
    value = input.startsWith('*** Begin Patch') ? patchSummary(input) : input;
  if (value === undefined && isObject(input)) {
    for (const key of KEY_FIELDS) {
      const v = input[key];
      if (typeof v === 'string' && v.length > 0) {
        value = v;
        break;
      }
    }
    if (value === undefined && typeof input.input === 'string' && input.input.includes('*** Begin Patch'))
      value = patchSummary(input.input);
  }
  return (value ?? fallbackText).replace(/\s+/g, ' ').trim();
}

/** "*** Update File: a.ts, *** Add File: b.ts" → "update a.ts, add b.ts". */
function patchSummary(patch: string): string {
  const files = [...patch.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)].map(
    (m) => `${m[1]!.toLowerCase()} ${m[2]!.trim()}`,
  );
  return files.length > 0 ? `patch: ${files.join(', ')}` : 'patch';
}
