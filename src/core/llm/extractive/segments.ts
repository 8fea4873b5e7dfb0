// Owns language-neutral text units for logbook events: sentences and words by Intl.Segmenter (so Chinese,
// Japanese and Korean text, which has no spaces, splits as well as English), Markdown links reduced to
// their text, and cuts that end at a word boundary with "…".
import { joinWrapped } from './logbook-paragraphs.js';
import { splitSentences } from './text.js';

const sentenceSegmenter = new Intl.Segmenter('und', { granularity: 'sentence' });
const wordSegmenter = new Intl.Segmenter('und', { granularity: 'word' });
/** Scripts without spaces between words, or whose words the ASCII term rules do not see. */
const NON_LATIN_WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** `[text](target)` → `text`; `<https://…>` → the address: link targets never count toward a cut. */
export function stripLinks(text: string): string {
  return text.replace(/!?\[([^\]\n]*)\]\([^)\s]*(?:\s+"[^"]*")?\)/g, '$1').replace(/<(https?:\/\/[^>\s]+)>/g, '$1');
}

/** Sentence ends inside inline code (`a ? b : c`, `x.y`) masked while splitting, so code never ends one. */
const MASK: Record<string, string> = { '.': '\uE000', '!': '\uE001', '?': '\uE002' };
const unmask = (s: string) => s.replace(/[\uE000-\uE002]/g, (c) => '.!?'[c.charCodeAt(0) - 0xe000]!);

/** Prose sentences of a message (code, tables and tool lines set aside), split by the ICU sentence rules. */
export function proseSentences(text: string): string[] {
  const out: string[] = [];
  const masked = stripLinks(joinWrapped(text)).replace(/(?<!\x60)\x60[^\x60\n]+\x60(?!\x60)/g, (code) =>
    code.replace(/[.!?]/g, (c) => MASK[c]!),
  );
  for (const line of splitSentences(masked)) {
    for (const { segment } of sentenceSegmenter.segment(line)) {
      // ICU keeps "…니다. chown으로" together (a Latin word after a Korean sentence end): split it here.
      for (const piece of segment.split(/(?<=[다요죠음][.!?])\s+/)) {
        const sentence = unmask(piece.trim());
        if (sentence) out.push(sentence);
      }
    }
  }
  return out;
}

/** The word-like units of a text, in any script. */
export function wordsOf(text: string): string[] {
  return [...wordSegmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
}

/** True when the text is mostly in a script without spaces (CJK) or Hangul. */
export function isNonLatin(text: string): boolean {
  const words = wordsOf(text);
  return words.filter((w) => NON_LATIN_WORD.test(w)).length * 2 >= words.length && words.length > 0;
}

/** Terms of non-Latin words (CJK, Hangul, accented Latin) that the ASCII term rules skip. */
export function extraTerms(text: string): string[] {
  return wordsOf(text.toLowerCase()).filter(
    (w) => (NON_LATIN_WORD.test(w) && w.length >= 2) || (/[^\x00-\x7f]/.test(w) && /^\p{L}{4,}$/u.test(w)),
  );
}

/** Cuts text to at most `max` characters at a word boundary (any script), marking the cut with "…". */
export function clipAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const { segment, index } of wordSegmenter.segment(text)) {
    if (index + segment.length > max - 1) break;
    end = index + segment.length;
  }
  if (end < max * 0.5) end = max - 1;
  return text.slice(0, end).replace(/[\s,;:(\-—–、，]+$/u, '') + '…';
}

/** Readable content: markdown emphasis and list markers gone, whitespace collapsed. */
export function tidy(text: string): string {
  return text
    .replace(/\*\*|__/g, '')
    .replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}
