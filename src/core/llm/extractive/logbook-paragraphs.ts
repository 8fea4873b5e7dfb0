// Owns the paragraph structure of a message before it is cut into sentences: hard-wrapped lines of one
// paragraph joined back (a pasted text must not be cut at its line ends), and the sentences that come
// from the items of a list (a list item is a fragment of the list's subject, not a statement of its own).

/** A line that opens a block of its own: a list item, heading, quote, table row, fence, tag or tool line. */
const BLOCK_LINE = /^\s*(?:[-*+•>|#]|\d+[.)]\s|\x60{3}|<|[→←│]|_\*\*|---)/;
const LIST_ITEM = /^\s*(?:[-*+•]|\d+[.)])\s+/;
/** Code fences, and the SEARCH/REPLACE blocks of an editor's diff: their lines are never prose. */
const FENCE = /^\s*(?:\x60{3}|<{7} SEARCH|>{7} REPLACE)/;
const TITLE_OR_BLOCK = /^\s*(?:#|\||\x60{3}|[→←│])|^\s*\*\*[^*]+\*\*\s*$/;
/** Tool output: a path with a line number, or a stack frame. */
const LOG_LINE = /\S[/\\]\S*:\d+|^\s*at \S+ \(/;
/** A line ending a sentence or a clause that introduces what follows. */
const CLOSED = /[.!?:;。！？：；]["'”’)）」』*]*\s*$/u;
const CJK_END = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}、，]$/u;
const CJK_START = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WIDE = /[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uff00-\uffef]/g;
/** Shorter lines are titles or labels, not a wrapped paragraph's lines. */
const WRAPPED_MIN = 36;

/**
 * Joins the hard-wrapped lines of each paragraph: a long line that does not end a sentence, followed by a
 * line of prose (not a new block), continues on it. Chinese and Japanese lines join without a space.
 */
export function joinWrapped(text: string): string {
  const out: string[] = [];
  let fenced = false;
  let open = false;
  let rawLength = 0;
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) fenced = !/^\s*>{7}/.test(line) && (!fenced || /^\s*<{7}/.test(line));
    const prev = out[out.length - 1];
    const trimmed = line.trim();
    const continues =
      open &&
      !fenced &&
      prev !== undefined &&
      trimmed !== '' &&
      !BLOCK_LINE.test(line) &&
      !LOG_LINE.test(line) &&
      (/\s/.test(trimmed) || CJK_START.test(trimmed)) && // a bare path or word is a line of its own
      !LOG_LINE.test(prev) &&
      (/^\s{2,}/.test(line) ? LIST_ITEM.test(prev) : rawLength >= WRAPPED_MIN);
    if (continues) {
      const glue = CJK_END.test(prev.trimEnd()) && CJK_START.test(trimmed) ? '' : ' ';
      out[out.length - 1] = prev.trimEnd() + glue + trimmed;
    } else {
      out.push(line);
    }
    // A CJK character takes two columns of a wrapped line.
    rawLength = trimmed.length + (trimmed.match(WIDE) ?? []).length;
    const last = out[out.length - 1]!;
    open = !fenced && last.trim() !== '' && !CLOSED.test(last) && !TITLE_OR_BLOCK.test(last);
  }
  return out.join('\n');
}

/**
 * The items of every list of two or more items in a text (wrapped lines joined), without their markers:
 * a sentence from one of them depends on the list's lead-in for its subject.
 */
export function listItems(text: string): string[] {
  const lines = joinWrapped(text).split('\n');
  const items: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length >= 2) items.push(...run);
    run = [];
  };
  for (const line of lines) {
    if (LIST_ITEM.test(line))
      run.push(
        line
          .replace(LIST_ITEM, '')
          .replace(/\*\*|__/g, '')
          .trim(),
      );
    else if (line.trim() !== '') flush();
  }
  flush();
  return items.filter(Boolean);
}

/** True when a sentence comes from one of `items` (it is the item or a sentence of it). */
export function fromListItem(sentence: string, items: readonly string[]): boolean {
  const probe = sentence.replace(/\s+/g, ' ').slice(0, 40);
  return probe.length > 0 && items.some((item) => item.replace(/\s+/g, ' ').includes(probe));
}

/**
 * Whether one more decision may come from a message's list items: the agent's only with a reason or an
 * alternative and once per message (a summary's bullets restate one change); the user's twice.
 */
export function listDecisionAllowed(role: string, reasoned: boolean, taken: number): boolean {
  return role === 'user' ? taken < 2 : reasoned && taken < 1;
}

/** A message's gate for decisions from its list items (see listDecisionAllowed); other sentences pass. */
export function listGateOf(
  text: string,
  role: string,
): (sentence: string, found: { rationale?: string; alternatives: string[] }) => boolean {
  const items = listItems(text);
  let taken = 0;
  return (sentence, found) => {
    if (!fromListItem(sentence, items)) return true;
    return listDecisionAllowed(role, found.rationale !== undefined || found.alternatives.length > 0, taken++);
  };
}
