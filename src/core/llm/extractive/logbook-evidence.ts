// Owns the evidence that code changed after a failure or a diagnosis: edit calls, the diff lines under
// them, aider SEARCH blocks, apply_patch headers, the diff or file-labelled code blocks editors' chat
// exports show for an applied edit, and a later message that reports the fix done.
import type { LogbookChunkMessage } from '../task-schemas.js';
import { FIX_DONE, STILL_FAILING } from './logbook-cues.js';
import { proseSentences } from './segments.js';
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
 * True when an edit or a reported fix follows within FIX_WINDOW messages (the message itself included),
 * unless the user's next turn says the failure is still there.
 */
export function fixFollows(messages: readonly LogbookChunkMessage[], at: number): boolean {
  let fixed = false;
  for (let i = at; i < Math.min(messages.length, at + 1 + FIX_WINDOW); i++) {
    const m = messages[i]!;
    if (m.role === 'user') {
      if (i > at && STILL_FAILING.test(m.text)) return false;
      if (fixed) return true;
      continue;
    }
    if (fixed) continue;
    if (editsCode(m)) fixed = true;
    else if (i > at && proseSentences(withoutToolLines(m.text)).some((x) => FIX_DONE.test(x))) fixed = true;
  }
  return fixed;
}
