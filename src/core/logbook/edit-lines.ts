// Owns how an edit call reads in a logbook chunk: a compact diff under its call line (changed lines only,
// a few of each, clipped), so the model sees what changed, not only which file. Lines start with "│-" or
// "│+" so the offline provider sets them aside like tool lines.
import { findPatch } from '../../shared/tool-calls/edit-stats.js';
import { classifyTool } from '../../shared/tool-calls/tool-classes.js';

const MAX_LINES = 4;
const LINE_MAX = 120;

function clipLine(line: string): string {
  const t = line.replace(/\s+$/, '');
  return t.length > LINE_MAX ? `${t.slice(0, LINE_MAX - 1)}…` : t;
}

function lines(text: unknown): string[] {
  return typeof text === 'string' ? text.replace(/\r\n?/g, '\n').split('\n') : [];
}

/** Changed lines of one replacement: the common first and last lines dropped, a few of each side kept. */
function replacement(oldText: unknown, newText: unknown): string[] {
  const a = lines(oldText);
  const b = lines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const side = (list: string[], sign: string): string[] => {
    const changed = list.filter((l) => l.trim() !== '');
    const shown = changed.slice(0, MAX_LINES).map((l) => `│${sign} ${clipLine(l.trim())}`);
    if (changed.length > MAX_LINES) shown.push(`│${sign} … ${changed.length - MAX_LINES} more lines`);
    return shown;
  };
  return [...side(a.slice(start, endA), '-'), ...side(b.slice(start, endB), '+')];
}

/** The compact diff lines of an edit call's input (none for other calls). */
export function editDiffLines(toolName: string | null, input: unknown): string[] {
  if (classifyTool(toolName) !== 'edit' || !input || typeof input !== 'object') return [];
  const o = input as Record<string, unknown>;
  if ('old_string' in o || 'new_string' in o) return replacement(o.old_string, o.new_string);
  if (Array.isArray(o.edits))
    return o.edits
      .slice(0, 2)
      .flatMap((e) =>
        e && typeof e === 'object'
          ? replacement((e as Record<string, unknown>).old_string, (e as Record<string, unknown>).new_string)
          : [],
      );
  const patch = findPatch(input);
  if (patch) {
    const changed = lines(patch).filter((l) => /^[-+](?![-+]{2})/.test(l) && l.slice(1).trim() !== '');
    const shown = changed.slice(0, MAX_LINES * 2).map((l) => `│${l[0]} ${clipLine(l.slice(1).trim())}`);
    if (changed.length > shown.length) shown.push(`│+ … ${changed.length - shown.length} more lines`);
    return shown;
  }
  if (typeof o.content === 'string') return replacement('', o.content);
  return [];
}
