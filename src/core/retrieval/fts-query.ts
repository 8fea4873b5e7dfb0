// Owns turning what a person types into a safe FTS5 MATCH expression. The text is parsed into a tree
// (terms, "phrases", OR groups, -exclusions) and the tree is written out with explicit AND/OR/NOT and
// every term quoted, so FTS5 syntax never leaks through and no juxtaposition is left for FTS5 to parse.
// A word matches itself, words it prefixes and (English) words of its stem; CJK runs are phrases of single
// characters (see store/fts-text.ts); parts of identifiers and paths are token phrases.
import { stemmer } from 'stemmer';
import { StrataError } from '../../shared/errors.js';
import { camelParts, hasCjk, toFtsTerm } from '../../store/fts-text.js';

export interface FtsQuery {
  /** The FTS5 MATCH expression. */
  match: string;
  /** Positive terms as typed (lower-cased), for the substring fallback. */
  needles: string[];
  /** What a snippet looks for: the typed terms and the stems they match by. */
  highlights: string[];
  /** True when a substring scan may stand in for FTS (identifier/path-like terms, no OR). */
  substringFallback: boolean;
  /**
   * The expressions ANDed at the top level, one per typed term or OR group, when the query has no OR
   * between groups and no exclusion: a question whose words are not all in one block is matched word by
   * word (see search-words.ts). Empty for queries with exclusions.
   */
  words: { text: string; match: string }[];
}

/** A parsed query: terms ANDed together, OR groups, and exclusions applying to the whole. */
export type QueryNode =
  | { kind: 'term'; text: string; phrase: boolean }
  | { kind: 'or'; children: QueryNode[] }
  | { kind: 'and'; children: QueryNode[] };

export interface ParsedQuery {
  positive: QueryNode;
  negative: QueryNode[];
}

interface Token {
  text: string;
  negated: boolean;
  phrase: boolean;
}

function invalid(message: string): StrataError {
  return new StrataError('INVALID_QUERY', `invalid query: ${message}`);
}

/** Splits typed text into terms, explicit "phrases" and OR operators (AND is implied and may be typed). */
function lex(query: string): (Token | 'OR')[] {
  const out: (Token | 'OR')[] = [];
  const re = /(-?)"([^"]*)("?)|(\S+)/g;
  for (let m = re.exec(query); m !== null; m = re.exec(query)) {
    if (m[2] !== undefined) {
      if (m[3] !== '"') throw invalid('unbalanced double quote (close the "phrase")');
      out.push({ text: m[2], negated: m[1] === '-', phrase: true });
    } else {
      const word = m[4]!;
      if (word === 'OR') out.push('OR');
      else if (word === 'AND') continue;
      else if (word.startsWith('-') && word.length > 1) out.push({ text: word.slice(1), negated: true, phrase: false });
      else out.push({ text: word, negated: false, phrase: false });
    }
  }
  return out;
}

const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

function tokens(text: string): string[] {
  return (toFtsTerm(text).match(TOKEN) ?? []).map((t) => t.toLowerCase());
}

/**
 * Parses a query: terms are ANDed, `a OR b` groups bind tighter than AND (`a OR b c` is (a OR b) AND c),
 * `-word` excludes. Terms without a searchable character are dropped. Throws INVALID_QUERY when nothing
 * is left to search for or an OR lacks a side.
 */
export function parseQuery(query: string): ParsedQuery {
  const groups: QueryNode[][] = [];
  const negative: QueryNode[] = [];
  let pendingOr = false;
  for (const item of lex(query)) {
    if (item === 'OR') {
      if (groups.length === 0 || pendingOr) throw invalid('OR needs a term on both sides');
      pendingOr = true;
      continue;
    }
    if (tokens(item.text).length === 0) continue;
    const term: QueryNode = { kind: 'term', text: item.text, phrase: item.phrase };
    if (item.negated) {
      negative.push(term);
      continue;
    }
    if (pendingOr) groups[groups.length - 1]!.push(term);
    else groups.push([term]);
    pendingOr = false;
  }
  if (pendingOr) throw invalid('OR needs a term on both sides');
  if (groups.length === 0) {
    throw invalid(
      negative.length > 0
        ? 'a query needs at least one term that is not excluded'
        : 'the query has no searchable words',
    );
  }
  const children = groups.map((g): QueryNode => (g.length === 1 ? g[0]! : { kind: 'or', children: g }));
  return { positive: children.length === 1 ? children[0]! : { kind: 'and', children }, negative };
}

const CAMEL = /\p{Ll}\p{Lu}|\p{Lu}{2}\p{Ll}/u;

/** True for camelCase, snake_case, kebab-case, dotted and path-like terms (where substrings matter). */
export function isIdentifierLike(text: string): boolean {
  return (
    CAMEL.test(text) ||
    /[_./\\:-]/.test(text.replace(/^[-"]+|[.,;:!?"]+$/g, '')) ||
    (/\p{L}/u.test(text) && /\p{N}/u.test(text))
  );
}

function quote(phrase: string): string {
  return `"${phrase.replace(/"/g, '""')}"`;
}

/** Words shorter than this match only themselves: a prefix query of `a*` would read most of the index. */
const MIN_PREFIX = 3;

/** The stem a word also matches by (`installation` → `instal`), or undefined when it adds nothing. */
function stemOf(word: string): string | undefined {
  if (!/^[a-z]+$/.test(word)) return undefined;
  const stem = stemmer(word);
  return stem.length >= MIN_PREFIX && stem !== word ? stem : undefined;
}

/**
 * Says whether a word's exact form (a quoted FTS5 term) already matches so many blocks that its other forms
 * would only rank below it: such a word is searched as itself alone (see search.ts commonWord).
 */
export type CommonWord = (exact: string) => boolean;

/**
 * One term → an FTS5 expression. A plain word matches itself OR words it prefixes OR words of its stem
 * (`"install" OR "install"* OR "instal"*`): a block holding the exact word matches more of the OR and
 * ranks first. camelCase is a prefix OR its sub-word phrase (parseSession finds getParseSession through
 * the sub-words indexed after each text); several tokens are a phrase whose last token may be a prefix;
 * "phrases" and CJK are exact phrases. A word `common` says is common matches only itself.
 */
function termExpression(text: string, phrase: boolean, common?: CommonWord): string {
  const toks = tokens(text);
  if (phrase || hasCjk(text)) return quote(toks.join(' '));
  // Parts of an identifier or path: the last part may be cut short (m011_native_gan, install-glob).
  if (toks.length > 1)
    return toks[toks.length - 1]!.length >= MIN_PREFIX ? `${quote(toks.join(' '))}*` : quote(toks.join(' '));
  const word = toks[0]!;
  if (word.length >= MIN_PREFIX && common?.(quote(word))) return quote(word);
  if (CAMEL.test(text)) {
    const parts = camelParts(text.replace(/[^\p{L}\p{N}]/gu, '')).map((p) => p.toLowerCase());
    return parts.length > 1 ? `(${quote(word)}* OR ${quote(parts.join(' '))})` : `${quote(word)}*`;
  }
  if (word.length < MIN_PREFIX) return quote(word);
  const stem = stemOf(word);
  const forms = [quote(word), `${quote(word)}*`];
  if (stem !== undefined && !word.startsWith(stem)) forms.push(`${quote(stem)}*`);
  else if (stem !== undefined) forms[1] = `${quote(stem)}*`;
  return `(${forms.join(' OR ')})`;
}

/** Writes a tree out with explicit operators and parentheses around every group. */
export function toMatch(node: QueryNode, common?: CommonWord): string {
  switch (node.kind) {
    case 'term':
      return termExpression(node.text, node.phrase, common);
    case 'or':
      return `(${node.children.map((c) => toMatch(c, common)).join(' OR ')})`;
    case 'and':
      return `(${node.children.map((c) => toMatch(c, common)).join(' AND ')})`;
  }
}

function termsOf(node: QueryNode): { text: string; phrase: boolean }[] {
  return node.kind === 'term' ? [node] : node.children.flatMap(termsOf);
}

function plainText(node: QueryNode): string {
  return node.kind === 'term' ? node.text : node.children.map(plainText).join(node.kind === 'or' ? ' OR ' : ' ');
}

/** `common`: when given, words it names common match only their exact form (exclusions all forms). */
export function buildFtsQuery(query: string, common?: CommonWord): FtsQuery {
  const parsed = parseQuery(query);
  const positive = toMatch(parsed.positive, common);
  const match = parsed.negative.length
    ? `${positive}${parsed.negative.map((n) => ` NOT ${toMatch(n)}`).join('')}`
    : positive;
  const terms = termsOf(parsed.positive);
  const needles = terms.map((t) => t.text.toLowerCase());
  const highlights = [
    ...new Set(
      terms.flatMap((t) => {
        const toks = tokens(t.text);
        const exactOnly = toks.length === 1 && !t.phrase && common?.(quote(toks[0]!)) === true;
        const stem = toks.length === 1 && !t.phrase && !exactOnly ? stemOf(toks[0]!) : undefined;
        return stem !== undefined ? [t.text.toLowerCase(), stem] : [t.text.toLowerCase()];
      }),
    ),
  ];
  const hasOr = JSON.stringify(parsed.positive).includes('"kind":"or"');
  const tops = parsed.positive.kind === 'and' ? parsed.positive.children : [parsed.positive];
  return {
    match,
    needles,
    highlights,
    substringFallback:
      !hasOr && parsed.negative.length === 0 && terms.some((t) => t.phrase || isIdentifierLike(t.text)),
    words:
      parsed.negative.length === 0 && tops.length > 1
        ? tops.map((n) => ({ text: plainText(n), match: toMatch(n, common) }))
        : [],
  };
}
