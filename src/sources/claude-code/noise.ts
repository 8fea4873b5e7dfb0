// Owns the recognition of harness noise inside Claude Code user text: wrappers such as
// `<command-name>`, `<system-reminder>`, `<local-command-stdout>` and the "[Request interrupted ...]"
// markers. Text is split into segments, each either typed text or a noise wrapper (kept, but marked).

const NOISE_TAGS = [
  'command-name',
  'command-message',
  'command-args',
  'command-contents',
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'bash-input',
  'bash-stdout',
  'bash-stderr',
  'ide_opened_file',
  'ide_selection',
  'ide_diagnostics',
  'system-reminder',
  'task-notification',
  'user-prompt-submit-hook',
  'post-tool-use-hook',
  'user-memory-input',
  'session-start-hook',
] as const;

export interface TextSegment {
  text: string;
  /** The wrapper tag when the segment is harness noise. */
  noise?: string;
}

const TAG_ALTERNATION = NOISE_TAGS.map((tag) => tag.replace(/[-_]/g, (c) => `\\${c}`)).join('|');
/** A closed wrapper `<tag ...>...</tag>`, or an opening tag never closed (the rest of the text). */
// Attributes are bounded (no `<`, at most 200 chars) so a text full of unclosed `<tag ` stays linear.
const WRAPPER = new RegExp(`<(${TAG_ALTERNATION})(?:\\s[^<>]{0,200})?>(?:[\\s\\S]*?</\\1>|[\\s\\S]*$)`, 'g');
const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]/;

/** Splits user text into typed text and noise segments; whitespace between segments is dropped. */
export function splitNoise(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  const pushPlain = (plain: string): void => {
    const trimmed = plain.trim();
    if (!trimmed) return;
    const interrupted = INTERRUPTED.exec(trimmed);
    if (interrupted) {
      segments.push({ text: interrupted[0], noise: 'interrupted' });
      const rest = trimmed.slice(interrupted[0].length).trim();
      if (rest) segments.push({ text: rest });
      return;
    }
    segments.push({ text: trimmed });
  };
  let last = 0;
  WRAPPER.lastIndex = 0;
  for (let match = WRAPPER.exec(text); match; match = WRAPPER.exec(text)) {
    pushPlain(text.slice(last, match.index));
    segments.push({ text: match[0], noise: match[1] });
    last = match.index + match[0].length;
    if (match[0].length === 0) WRAPPER.lastIndex++;
  }
  if (last === 0 && !INTERRUPTED.test(text.trimStart())) return text.trim() ? [{ text }] : [];
  pushPlain(text.slice(last));
  return segments;
}
