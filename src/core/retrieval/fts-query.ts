// Owns turning what a person types into a safe FTS5 MATCH expression: every term is quoted (so FTS syntax
// never leaks through), "explicit phrases", OR between terms, -exclusion, CJK runs as phrases of single
// characters (see store/fts-text.ts), parts of identifiers and paths as token phrases, camelCase and
// alphanumeric identifiers as prefix queries. Also lists the plain needles used for snippets and the
// substring fallback.
import { StrataError } from '../../shared/errors.js';
import { camelParts, hasCjk, toFtsTerm } from '../../store/fts-text.js';

export interface FtsQuery {
  /** The FTS5 MATCH expression. */
  match: string;
  /** Positive terms as typed (lower-cased), for snippets and the substring fallback. */
  needles: string[];
  /** True when a substring scan may stand in for FTS (identifier/path-like terms, no OR). */
  substringFallback: boolean;
}

interface Term {
  text: string;
  negated: boolean;
  phrase: boolean;
}

function invalid(message: string): StrataError {
  return new StrataError('INVALID_QUERY', `invalid query: ${message}`);
}

/** Splits typed text into terms, explicit "phrases" and OR operators. */
function lex(query: string): (Term | 'OR')[] {
  const out: (Term | 'OR')[] = [];
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

const CAMEL = /\p{Ll}\p{Lu}|\p{Lu}{2}\p{Ll}/u;

/** True for camelCase, snake_case, kebab-case, dotted and path-like terms (where substrings matter). */
export function isIdentifierLike(text: string): boolean {
  return CAMEL.test(text) || /[_./\\:-]/.test(text.replace(/^[-"]+|[.,;:!?"]+$/g, '')) || (/\p{L}/u.test(text) && /\p{N}/u.test(text));
}

function quote(token: string): string {
  return `"${token.replace(/"/g, '""')}"`;
}

/** One term → FTS5 expression, or undefined when it holds no searchable characters. */
function termExpression(term: Term): string | undefined {
  const toks = tokens(term.text);
  if (toks.length === 0) return undefined;
  if (toks.length > 1 || term.phrase || hasCjk(term.text)) return quote(toks.join(' '));
  // A single-token identifier such as parseSession: prefix query (parsesession*) finds parseSessionFile,
  // and the phrase of its sub-words ("parse session", indexed after each text) finds getParseSession.
  if (CAMEL.test(term.text)) {
    const parts = camelParts(term.text.replace(/[^\p{L}\p{N}]/gu, '')).map((p) => p.toLowerCase());
    return parts.length > 1 ? `(${quote(toks[0]!)}* OR ${quote(parts.join(' '))})` : `${quote(toks[0]!)}*`;
  }
  return /\p{N}/u.test(term.text) ? `${quote(toks[0]!)}*` : quote(toks[0]!);
}

export function buildFtsQuery(query: string): FtsQuery {
  const items = lex(query);
  const positive: string[] = [];
  const negative: string[] = [];
  const needles: string[] = [];
  let pendingOr = false;
  let sawOr = false;
  let identifierLike = false;
  for (const item of items) {
    if (item === 'OR') {
      if (positive.length === 0 || pendingOr) throw invalid('OR needs a term on both sides');
      pendingOr = true;
      sawOr = true;
      continue;
    }
    const expr = termExpression(item);
    if (expr === undefined) continue;
    if (item.negated) {
      negative.push(expr);
      continue;
    }
    positive.push(pendingOr ? `OR ${expr}` : expr);
    pendingOr = false;
    needles.push(item.text.toLowerCase());
    if (isIdentifierLike(item.text) || item.phrase) identifierLike = true;
  }
  if (pendingOr) throw invalid('OR needs a term on both sides');
  if (positive.length === 0) {
    throw invalid(negative.length > 0 ? 'a query needs at least one term that is not excluded' : 'the query has no searchable words');
  }
  const core = positive.join(' ');
  const match = negative.length ? `(${core})${negative.map((n) => ` NOT ${n}`).join('')}` : core;
  return { match, needles, substringFallback: identifierLike && !sawOr && negative.length === 0 };
}
