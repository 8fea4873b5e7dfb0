// Owns telling the user's own words from what they pasted: instructions and templates that open many
// sessions, the words typed below such a paste, and code, logs, quotes and tags inside a turn.
import type { LogbookChunkMessage } from '../task-schemas.js';

/** Long pasted instructions and templates (the same text opens many sessions): not the project's events. */
export function isBoilerplate(message: LogbookChunkMessage): boolean {
  const text = message.text;
  if (/<(?:user_instructions|environment_context|system-reminder|INSTRUCTIONS)>/i.test(text)) return true;
  if (message.role !== 'user' || text.length < 1200) return false;
  // Headings in Markdown, or as short unpunctuated title lines (a pasted review: "✅ Strengths").
  const headings = Math.max(
    (text.match(/^#{1,4} /gm) ?? []).length,
    text.split('\n').filter((l) => /^\S.{2,38}$/.test(l.trim()) && !/[.!?:;,)]$/.test(l.trim())).length - 1,
  );
  const bullets = (text.match(/^\s*(?:[-*]|\d+\.) /gm) ?? []).length;
  return headings >= 3 || bullets >= 12 || /\byou (?:must|are an?|should always)\b/i.test(text);
}

/**
 * The user's own words typed below a pasted document (guidelines closed by a `<!-- …-end -->` marker or a
 * closing tag): read as a message of their own; '' when nothing follows the paste.
 */
export function typedAfterPaste(message: LogbookChunkMessage): string {
  if (message.role !== 'user') return '';
  const lines = message.text.split('\n');
  const end = lines.findLastIndex((l) => /^\s*(?:<!--.*-->|<\/[\w-]+>)\s*$/.test(l));
  if (end < 0) return '';
  const own = lines
    .slice(end + 1)
    .join('\n')
    .trim();
  return own && !isBoilerplate({ ...message, text: own }) ? own : '';
}

/** A long mention ("@c:\Users\…\terminals\5.txt:7-215") points at a paste: the words beside it are the user's. */
export const withoutLongMentions = (line: string): string => line.replace(/(?:^|\s)@\S{40,}/g, ' ');

/** The user's own words: pasted code, logs, quotes, tags and file mentions left out. */
export function ownWords(text: string): string {
  const kept: string[] = [];
  let fenced = false;
  for (const raw of text.replace(/<([\w-]+)>[\s\S]*?<\/\1>/g, ' ').split('\n')) {
    const line = withoutLongMentions(raw).trim();
    if (/^\x60{3}/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || !line || line.startsWith('>') || /^(?:at |File "|Traceback|\s*\d+\s*\|)/.test(line)) continue;
    // A log or stack line: mostly symbols, or a long run of ASCII without spaces (CJK prose has no spaces).
    if (/[\x21-\x7e]{60,}/.test(line) || /^[\[{(<]/.test(line) || /^\w*(?:Error|Exception)\b/.test(line)) continue;
    kept.push(line);
  }
  return kept.join('\n');
}
