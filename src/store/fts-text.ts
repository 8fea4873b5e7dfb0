// Owns how text is prepared for the full-text index and how query terms are prepared to match it:
// CJK characters become one token each, so a run of two or more matches as a phrase.

/** Hiragana, Katakana, CJK ideographs (+ext A, compat), Hangul syllables, CJK punctuation/fullwidth forms. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
const CJK_GLOBAL = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/gu;

/** Text longer than this is indexed only up to this length (the full text stays in the store). */
export const FTS_MAX_CHARS = 1_000_000;

/**
 * Tool output (file dumps, logs) is most of the bytes and least of the meaning: only its first 32 KiB
 * go into the BM25 index, then the paths and identifiers of the rest. The whole output stays in the
 * store, for `read` and regex search.
 */
export const FTS_MAX_TOOL_OUTPUT_CHARS = 32 * 1024;

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/**
 * A lower-case letter or digit followed by an upper-case letter: every camelCase word has one. The scan
 * finds these humps and widens each to its word, which is about twice as fast as matching whole words
 * with a regex (most of the text between humps is never looked at twice).
 */
const CAMEL_HUMP = /[a-z0-9][A-Z]/g;
const CAMEL_SPLIT = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;
const MAX_CAMEL_WORDS = 2000;

/** The sub-words of an identifier: parseSessionFile → parse Session File. */
export function camelParts(word: string): string[] {
  return word.split(CAMEL_SPLIT);
}

/** `\w` in a regex without the u flag: ASCII letters, digits and `_`. */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * Called as `charCodeAt.call(text, i)`: no per-character megamorphic lookup (see rulesHinted in core/ingest/redact.ts).
 */
const charCodeAt: (this: string, index: number) => number = String.prototype.charCodeAt;

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** Identifiers recur across a session's blocks; their split forms are kept (bounded) instead of re-split. */
const splitCache = new Map<string, string>();
const SPLIT_CACHE_MAX = 20_000;

function splitWord(word: string): string {
  let parts = splitCache.get(word);
  if (parts === undefined) {
    parts = camelParts(word).join(' ');
    if (splitCache.size >= SPLIT_CACHE_MAX) splitCache.clear();
    splitCache.set(word, parts);
  }
  return parts;
}

/**
 * The sub-words of the distinct camelCase identifiers in `text`, one identifier after another. Indexed
 * after the text itself (so phrases in the text stay intact), they let `Session` or `parseSession`
 * find `parseSessionFile`. snake_case, kebab-case and paths need nothing: the tokenizer splits them.
 * An identifier is a whole word (ASCII letters and digits, no `_`) that starts with a letter and has a
 * hump after its first character (`parseFile`, `getHTTPResponse`; not `iPhone`, `HTTPServer`, `snake_caseX`,
 * `3dModel`).
 */
export function camelTail(text: string): string {
  CAMEL_HUMP.lastIndex = 0;
  let hump = CAMEL_HUMP.exec(text);
  if (hump === null) return '';
  const words = new Set<string>();
  while (hump !== null) {
    const at = hump.index;
    let start = at;
    while (start > 0 && isWordChar(charCodeAt.call(text, start - 1))) start--;
    if (start === at) {
      // The hump's first character starts the word: look for a later hump in the same word.
      CAMEL_HUMP.lastIndex = at + 1;
    } else {
      let end = at + 2;
      while (end < text.length && isWordChar(charCodeAt.call(text, end))) end++;
      const word = text.slice(start, end);
      if (isLetter(charCodeAt.call(text, start)) && !word.includes('_')) {
        words.add(word);
        if (words.size >= MAX_CAMEL_WORDS) break;
      }
      CAMEL_HUMP.lastIndex = end;
    }
    hump = CAMEL_HUMP.exec(text);
  }
  let tail = '';
  for (const word of words) tail = tail === '' ? splitWord(word) : `${tail} . ${splitWord(word)}`;
  return tail;
}

/** A JSON string escape: \n, \t, … and \uXXXX become a space; an escaped backslash is matched so it stays. */
const JSON_ESCAPE = /\\(?:[nrtbf]|u[0-9a-fA-F]{4}|\\)/g;

/**
 * `text` with its JSON string escapes (a tool call's text is its input as JSON) turned into spaces, so
 * the letter after one is not glued to the next word: `"a\nimport x"` indexes `import`, not `nimport`.
 */
export function spaceJsonEscapes(text: string): string {
  return text.indexOf('\\') === -1 ? text : text.replace(JSON_ESCAPE, (escape) => (escape === '\\\\' ? escape : ' '));
}

/**
 * How a text is indexed, in two parts so that the common case (the text itself plus a short tail) never
 * copies the text: `body` replaces the text when it differs (CJK spaced out, clipped to `maxChars`, JSON
 * escapes spaced out when `json`), else null; `tail` holds the camelCase sub-words appended after it
 * ('' when none).
 */
export interface FtsParts {
  body: string | null;
  tail: string;
}

export function ftsParts(text: string, maxChars = FTS_MAX_CHARS, json = false): FtsParts {
  const clipped = text.length > maxChars ? text.slice(0, maxChars) : text;
  const words = json ? spaceJsonEscapes(clipped) : clipped;
  const body = hasCjk(words) ? words.replace(CJK_GLOBAL, ' $& ') : words;
  const tail = camelTail(words);
  if (clipped === text) return { body: body === text ? null : body, tail };
  const rest = identifiersPast(text, maxChars);
  return { body, tail: tail && rest ? `${tail} . ${rest}` : tail || rest };
}

/**
 * Paths, dotted and kebab names (a/b.ts, pkg.mod, my-tool), camelCase and snake_case identifiers. Each
 * alternative starts only where a word starts, so a long run of letters is scanned in linear time.
 */
const IDENTIFIER = /(?<![\w$~])[\w$~]+(?:[./\\:-][\w$]+)+|\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b|\b[A-Za-z]+_\w+/g;

/** At most this many distinct identifiers are indexed from the text past an index's clip. */
export const MAX_IDENTIFIERS_PAST_CLIP = 5000;

/**
 * The distinct paths and identifiers of `text` past `from` (scanned up to FTS_MAX_CHARS): what a search
 * for a file or a symbol in a long tool output needs, without indexing all its prose.
 */
export function identifiersPast(text: string, from: number): string {
  const seen = new Set<string>();
  const rest = text.slice(from, from + FTS_MAX_CHARS);
  for (const m of rest.matchAll(IDENTIFIER)) {
    if (!/[A-Za-z]/.test(m[0])) continue; // 1.2.3, 2024-01-01
    seen.add(m[0]);
    if (seen.size >= MAX_IDENTIFIERS_PAST_CLIP) break;
  }
  return [...seen].join(' . ');
}

/** The indexed text from its parts (see ftsParts). */
export function joinFts(text: string, parts: FtsParts): string {
  const body = parts.body ?? text;
  return parts.tail ? `${body}\n${parts.tail}` : body;
}

/** Text as written into the FTS index: CJK spaced out, camelCase sub-words appended. */
export function toFtsText(text: string, maxChars = FTS_MAX_CHARS): string {
  return joinFts(text, ftsParts(text, maxChars));
}

/** A query term spelled so it matches `toFtsText` output (CJK characters spaced apart). */
export function toFtsTerm(term: string): string {
  return hasCjk(term) ? term.replace(CJK_GLOBAL, ' $& ').replace(/\s+/g, ' ').trim() : term;
}
