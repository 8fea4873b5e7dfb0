// Owns how text is prepared for the full-text index and how query terms are prepared to match it:
// CJK characters become one token each, so a run of two or more matches as a phrase.

/** Hiragana, Katakana, CJK ideographs (+ext A, compat), Hangul syllables, CJK punctuation/fullwidth forms. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
const CJK_GLOBAL = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/gu;

/** Text longer than this is indexed only up to this length (the full text stays in the store). */
export const FTS_MAX_CHARS = 1_000_000;

/**
 * Tool output (file dumps, logs) is most of the bytes and least of the meaning: only its first 32 KiB
 * go into the BM25 index. The whole output stays in the store, for `read` and regex search.
 */
export const FTS_MAX_TOOL_OUTPUT_CHARS = 32 * 1024;

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/** Text as written into the FTS index. */
export function toFtsText(text: string, maxChars = FTS_MAX_CHARS): string {
  const clipped = text.length > maxChars ? text.slice(0, maxChars) : text;
  return hasCjk(clipped) ? clipped.replace(CJK_GLOBAL, ' $& ') : clipped;
}

/** A query term spelled so it matches `toFtsText` output (CJK characters spaced apart). */
export function toFtsTerm(term: string): string {
  return hasCjk(term) ? term.replace(CJK_GLOBAL, ' $& ').replace(/\s+/g, ' ').trim() : term;
}
