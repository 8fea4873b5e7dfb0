// Owns search snippets: the words around the first match in a block, on one line (`-C N` words each side).

/** Characters of text looked at per word of context: words are cut from a window, not the whole text. */
const CHARS_PER_WORD = 48;

/**
 * `context` words before and after the first match of `needle` (or the opening words when none matches).
 * Only a window of text around the match is split into words, so a hit in a multi-megabyte tool output
 * costs what a hit in a short message does. `clean` (e.g. unescaping) is applied to that window.
 */
export function snippetAround(text: string, needle: RegExp, context: number, clean?: (s: string) => string): string {
  const re = new RegExp(needle.source, needle.flags.includes('g') ? needle.flags : needle.flags + 'g');
  re.lastIndex = 0;
  const first = re.exec(text);
  const span = (2 * context + 2) * CHARS_PER_WORD;
  const lo = first ? Math.max(0, first.index - span) : 0;
  const hi = Math.min(text.length, (first ? first.index + first[0].length : 0) + span);
  // A word cut by the window's edge is dropped, and the edge is marked with an ellipsis.
  const cutBefore = lo > 0;
  const cutAfter = hi < text.length;
  const partialFirst = cutBefore && /\S/.test(text[lo - 1]!) && /^\S/.test(text.slice(lo, lo + 1));
  const partialLast = cutAfter && /\S/.test(text[hi]!) && /\S$/.test(text.slice(hi - 1, hi));
  const window = clean ? clean(text.slice(lo, hi)) : text.slice(lo, hi);
  re.lastIndex = 0;
  const m = first ? re.exec(window) : null;
  const start = m ? m.index : 0;
  const end = m ? m.index + Math.max(1, m[0].length) : 0;
  const before = window.slice(0, start).split(/\s+/).filter(Boolean);
  if (partialFirst && start > 0) before.shift();
  const hit = window.slice(start, end);
  const afterText = window.slice(end);
  // The match may sit inside a word: glue the word's remainder to the hit.
  const glueBefore = /\S$/.test(window.slice(0, start)) ? (before.pop() ?? '') : '';
  const glueAfter = /^\S+/.exec(afterText)?.[0] ?? '';
  const after = afterText.slice(glueAfter.length).split(/\s+/).filter(Boolean);
  if (partialLast && after.length > 0) after.pop();
  const shownBefore = before.slice(Math.max(0, before.length - context));
  const shownAfter = after.slice(0, m ? context : context * 2);
  const parts = [...shownBefore, `${glueBefore}${hit}${glueAfter}`.replace(/\s+/g, ' '), ...shownAfter].filter(Boolean);
  const prefix = shownBefore.length < before.length || cutBefore ? '… ' : '';
  const suffix = shownAfter.length < after.length || cutAfter ? ' …' : '';
  return prefix + parts.join(' ') + suffix;
}
