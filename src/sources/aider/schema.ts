// Owns the line grammar of Aider's `.aider.chat.history.md`: session headers, `#### ` prompt lines,
// `> ` tool/command output lines, `<thinking-content-…>` blocks and the start-time format.

export const SESSION_HEADER = /^# aider chat started at (.+?)\s*$/;
/** Aider's own reasoning tag (group 1: its id), or `<think>` of models whose reasoning tag is set by name. */
export const THINKING_OPEN = /^<(?:thinking-content-([0-9a-zA-Z]+)|think)>\s*$/;
export const MODE_LINE = /^-\*- mode: .*-\*-\s*$/;
export const MODEL_LINE = /^> (?:Main )?[Mm]odel: (\S+)/;
export const VERSION_LINE = /^> Aider v(\S+)/;

export type LineKind = 'header' | 'prompt' | 'output' | 'thinking_open' | 'blank' | 'text';

export function classifyLine(line: string): LineKind {
  if (line.startsWith('#### ') || line === '####' || /^####\s*$/.test(line)) return 'prompt';
  if (line.startsWith('>') && (line.length === 1 || line[1] === ' ')) return 'output';
  if (SESSION_HEADER.test(line)) return 'header';
  if (THINKING_OPEN.test(line)) return 'thinking_open';
  if (line.trim() === '') return 'blank';
  return 'text';
}

/** `#### text  ` → `text` (Aider ends every line with two spaces as a Markdown line break). */
export function promptLineText(line: string): string {
  return line.replace(/^####( |$)/, '').trimEnd();
}

/** `> text  ` → `text`. */
export function outputLineText(line: string): string {
  return line.replace(/^>( |$)/, '').trimEnd();
}

export function thinkingClose(tag: string | undefined): string {
  return tag === undefined ? '</think>' : `</thinking-content-${tag}>`;
}

/**
 * Aider writes the start time as local wall-clock time (`2026-05-02 13:55:39`); it is read in the
 * local time zone of the machine running strata (the machine that wrote it, for local histories).
 */
export function startTimeToIso(raw: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?$/.exec(raw.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, s);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
