// Owns the evidence that code changed after a failure or a diagnosis: edit calls, the diff lines under
// them, aider SEARCH blocks, apply_patch headers, the diff or file-labelled code blocks editors' chat
// exports show for an applied edit, and a later message that reports the fix done.
import type { LogbookChunkMessage } from '../task-schemas.js';
import { proseSentences, tidy } from './segments.js';
import { classifyTool } from '../../../shared/tool-calls/tool-classes.js';

/** How many messages after a failure are searched for its fix. */
export const FIX_WINDOW = 12;
const EDIT_EVIDENCE = /^(?:│[-+]|<{7} SEARCH|\*\*\* (?:Update|Add) File:|\x60{3}diff\s*$|\x60{3}\w+:\S+\s*$)/m;
/** Tool calls, results and the compact diff lines under an edit call. */
const TOOL_LINE = /^(?:[→←] |│[-+] )/;
export const CALL_LINE = /^→ (\S+): (.*)$/;
/** Edit tools the shared classes do not name: Copilot's and other editors' own. */
const MORE_EDIT_TOOLS = new RegExp(
  String.raw`^(?:str_replace\w*|copilot_(?:insertEdit|createFile|replaceString|multiReplaceString|applyPatch)|` +
    'vscode_editFile_internal|create_file|insert_edit_into_file)$',
  'i',
);

/** True when the tool changes files (Claude, Codex, Gemini, OpenCode, Cline, Cursor, Copilot, Kimi names). */
export function isEditTool(name: string): boolean {
  return classifyTool(name) === 'edit' || MORE_EDIT_TOOLS.test(name);
}

export function withoutToolLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => !TOOL_LINE.test(line))
    .join('\n');
}

/** True when the message edits code (an edit call, or an edit shown as a diff or labelled code block). */
export function editsCode(message: LogbookChunkMessage): boolean {
  if (message.role === 'user') return false;
  if (EDIT_EVIDENCE.test(message.text)) return true;
  return message.text.split('\n').some((l) => isEditTool(CALL_LINE.exec(l)?.[1] ?? ''));
}

/**
 * The sentences the agent wrote after message `at`, up to the user's next turn and within FIX_WINDOW
 * messages, tool lines left out (curly apostrophes read as straight ones).
 */
export function agentSaysAfter(messages: readonly LogbookChunkMessage[], at: number): string[] {
  const until = messages.findIndex((m, i) => i > at && m.role === 'user');
  return messages
    .slice(at + 1, Math.min(until < 0 ? messages.length : until, at + 1 + FIX_WINDOW))
    .flatMap((m) =>
      m.role === 'assistant' ? proseSentences(withoutToolLines(m.text).replace(/[\u2018\u2019]/g, "'")).map(tidy) : [],
    );
}
