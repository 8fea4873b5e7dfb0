// Owns search snippets: the words around the first match in a block, on one line (`-C N` words each side).

/** `context` words before and after the first match of `needle` (or the opening words when none matches). */
export function snippetAround(text: string, needle: RegExp, context: number): string {
  const re = new RegExp(needle.source, needle.flags.includes('g') ? needle.flags : needle.flags + 'g');
  re.lastIndex = 0;
  const m = re.exec(text);
  const start = m ? m.index : 0;
  const end = m ? m.index + Math.max(1, m[0].length) : 0;
  const before = text.slice(0, start).split(/\s+/).filter(Boolean);
  const hit = text.slice(start, end);
  const afterText = text.slice(end);
  // The match may sit inside a word: glue the word's remainder to the hit.
  const glueBefore = /\S$/.test(text.slice(0, start)) ? before.pop() ?? '' : '';
  const glueAfter = /^\S+/.exec(afterText)?.[0] ?? '';
  const after = afterText.slice(glueAfter.length).split(/\s+/).filter(Boolean);
  const shownBefore = before.slice(Math.max(0, before.length - context));
  const shownAfter = after.slice(0, m ? context : context * 2);
  const parts = [...shownBefore, `${glueBefore}${hit}${glueAfter}`.replace(/\s+/g, ' '), ...shownAfter].filter(Boolean);
  const prefix = shownBefore.length < before.length ? '… ' : '';
  const suffix = shownAfter.length < after.length ? ' …' : '';
  return prefix + parts.join(' ') + suffix;
}
