// Owns secret redaction at ingest: API keys of common vendors, bearer/JWT tokens, private key blocks,
// passwords in URLs and KEY=value secrets in .env-style text. Replaces each with `[REDACTED:<kind>]`.
import { MAX_JSON_DEPTH, stringifyJson } from '../../shared/bounded-json.js';

interface SecretRule {
  kind: string;
  pattern: RegExp;
  /** Index of the capture group holding the secret (0 = the whole match). */
  group: number;
  /** The rule can only match text containing one of these (lower case, matched case-insensitively). */
  hints: string[];
  /**
   * A cheaper pattern that any text the rule matches also matches, tried first. url-password's own pattern
   * starts with the scheme (a letter at a word boundary, tried at every word); its part from `://` on
   * starts with a literal the regex engine finds fast: ~10x faster on real text, where 9 in 10 texts with
   * a URL have no `user:password@`.
   */
  prefilter?: RegExp;
}

const ENV_KEYWORDS = ['secret', 'token', 'passw', 'api_key', 'apikey', 'access_key', 'accesskey', 'private_key', 'privatekey', 'credential', 'auth'];

const RULES: SecretRule[] = [
  { kind: 'private-key', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/g, group: 0, hints: ['private key'] },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, group: 0, hints: ['sk-ant-'] },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, group: 0, hints: ['sk-'] },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g, group: 0, hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'] },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, group: 0, hints: ['glpat-'] },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, group: 0, hints: ['akia', 'asia'] },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g, group: 0, hints: ['aiza'] },
  { kind: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, group: 0, hints: ['xox'] },
  { kind: 'stripe-key', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}/g, group: 0, hints: ['_live_', '_test_'] },
  { kind: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}/g, group: 0, hints: ['hf_'] },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}/g, group: 0, hints: ['npm_'] },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, group: 0, hints: ['eyj'] },
  { kind: 'bearer-token', pattern: /\b(Bearer\s+)([A-Za-z0-9._~+/-]{16,}=*)/g, group: 2, hints: ['bearer'] },
  {
    kind: 'url-password',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@"'\\]+:)([^\s@/"'\\]{3,})(@)/gi,
    group: 2,
    hints: ['://'],
    prefilter: /:\/\/[^\s:/@"'\\]+:[^\s@/"'\\]{3,}@/,
  },
  {
    kind: 'env-secret',
    // Anchored on the keyword, not on the start of the name that contains it (`MY_API_KEY=`): the same
    // secrets are found, without trying every prefix of every word (2.5x faster on real transcripts).
    // Quotes may be JSON-escaped: a tool call's text is its input as JSON (`"command":"export K=\"v\""`),
    // and a JSON key may be quoted (`"api_key": "v"`).
    pattern: /((?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[A-Za-z0-9_]*(?:\\?["'])?\s*[=:]\s*(?:\\?["'])?)([^\s"'\\$<>{}(),;]{8,})/gi,
    group: 2,
    hints: ENV_KEYWORDS,
  },
];

/**
 * The hints of every rule, found in one pass over the text. The pass looks at every other position: the
 * two characters there (ASCII, lower-cased) select the few hints whose first two or whose second and
 * third characters they are, and each is then compared whole. Every hint has at least three characters,
 * so wherever it starts, one of those two pairs sits at a position the pass looks at. One pass that says
 * which rules can apply is cheaper than a case-insensitive regex over all hints followed by a substring
 * search per rule, and looking at every other position is ~20% faster than at each (real transcripts).
 */
const FOLD = new Uint8Array(128).map((_, c) => (c >= 65 && c <= 90 ? c + 32 : c));
/**
 * PAIR_SLOT[c0 << 7 | c1] for two ASCII characters as they occur (any case): 0 when they are no hint's
 * first or second pair, else the index + 1 of the first of their candidates in CANDIDATE_* (CANDIDATE_END
 * marks the last). A candidate is a hint, the offset of the pair in it (0 or 1) and the rules it hints.
 */
const PAIR_SLOT = new Uint16Array(128 * 128);
const CANDIDATE_END: number[] = [];
const CANDIDATE_HINT: string[] = [];
const CANDIDATE_OFFSET: number[] = [];
const CANDIDATE_RULES: number[] = [];
{
  const byPair = new Map<number, Map<string, { hint: string; offset: number; rules: number }>>();
  RULES.forEach((rule, i) => {
    for (const hint of rule.hints) {
      if (hint.length < 3 || hint !== hint.toLowerCase()) throw new Error(`redaction hint ${hint}: 3+ lower-case characters`);
      for (const offset of [0, 1]) {
        const pair = (hint.charCodeAt(offset) << 7) | hint.charCodeAt(offset + 1);
        const candidates = byPair.get(pair) ?? new Map<string, { hint: string; offset: number; rules: number }>();
        const candidate = candidates.get(`${offset}${hint}`) ?? { hint, offset, rules: 0 };
        candidate.rules |= 1 << i;
        candidates.set(`${offset}${hint}`, candidate);
        byPair.set(pair, candidates);
      }
    }
  });
  const cases = (c: number): number[] => (c >= 97 && c <= 122 ? [c, c - 32] : [c]);
  for (const [pair, candidates] of byPair) {
    const first = CANDIDATE_HINT.length;
    for (const { hint, offset, rules } of candidates.values()) {
      CANDIDATE_HINT.push(hint);
      CANDIDATE_OFFSET.push(offset);
      CANDIDATE_RULES.push(rules);
    }
    for (let c = first; c < CANDIDATE_HINT.length; c++) CANDIDATE_END.push(CANDIDATE_HINT.length);
    for (const c0 of cases(pair >> 7)) for (const c1 of cases(pair & 127)) PAIR_SLOT[(c0 << 7) | c1] = first + 1;
  }
}

/**
 * `String.prototype.charCodeAt`, called as `charCodeAt.call(text, i)` in loops over every character.
 * `text.charCodeAt(i)` looks `charCodeAt` up on the string's map. Strings from JSON.parse, slices and
 * concatenations have different maps (sequential, sliced, cons; one- or two-byte; internalized), and once
 * a loop has seen more than four of them the lookup turns megamorphic and is no longer hoisted out of the
 * loop: a hash-table probe per character. Which strings a loop sees first varies between runs, so the
 * hint scan ran up to 4x slower in some processes (a sixth of the ingest worker's CPU on the runs it hit).
 * A module-level constant is called directly whatever the string's map (an imported one is not inlined).
 */
const charCodeAt: (this: string, index: number) => number = String.prototype.charCodeAt;

/** `hint` (lower case) occurs at `at` in `text`, in any case. */
function hintAt(text: string, at: number, hint: string): boolean {
  if (at < 0 || at + hint.length > text.length) return false;
  for (let j = 0; j < hint.length; j++) {
    const c = charCodeAt.call(text, at + j);
    if (c >= 128 || FOLD[c] !== hint.charCodeAt(j)) return false;
  }
  return true;
}

/** Bit i set: rule i may match `text` (one of its hints occurs in it, in any case). */
export function rulesHinted(text: string): number {
  let rules = 0;
  const last = text.length - 1;
  for (let i = 0; i < last; i += 2) {
    const c0 = charCodeAt.call(text, i);
    const c1 = charCodeAt.call(text, i + 1);
    if ((c0 | c1) >= 128) continue;
    const slot = PAIR_SLOT[(c0 << 7) | c1]!;
    if (slot === 0) continue;
    for (let c = slot - 1, end = CANDIDATE_END[c]!; c < end; c++) {
      const bits = CANDIDATE_RULES[c]!;
      if ((rules & bits) !== bits && hintAt(text, i - CANDIDATE_OFFSET[c]!, CANDIDATE_HINT[c]!)) rules |= bits;
    }
  }
  return rules;
}

export interface Redactor {
  redact(text: string): string;
  /** Number of secrets replaced so far. */
  readonly count: number;
  readonly byKind: Record<string, number>;
}

const PLACEHOLDER = /^\[REDACTED:[a-z-]+\]$/;

export function createRedactor(enabled = true): Redactor {
  const byKind: Record<string, number> = {};
  let count = 0;
  return {
    get count() {
      return count;
    },
    byKind,
    redact(text: string): string {
      if (!enabled || text.length < 8) return text;
      const hinted = rulesHinted(text);
      if (hinted === 0) return text;
      let out = text;
      for (let i = 0; i < RULES.length; i++) {
        if ((hinted & (1 << i)) === 0) continue;
        const rule = RULES[i]!;
        if (rule.prefilter && !rule.prefilter.test(out)) continue;
        rule.pattern.lastIndex = 0;
        if (!rule.pattern.test(out)) continue;
        rule.pattern.lastIndex = 0;
        out = out.replace(rule.pattern, (...args: unknown[]) => {
          const match = args[0] as string;
          const secret = rule.group === 0 ? match : (args[rule.group] as string | undefined);
          if (!secret || PLACEHOLDER.test(secret) || secret.startsWith('[REDACTED')) return match;
          if (rule.kind === 'env-secret' && !looksLikeSecretValue(secret)) return match;
          count++;
          byKind[rule.kind] = (byKind[rule.kind] ?? 0) + 1;
          const placeholder = `[REDACTED:${rule.kind}]`;
          return rule.group === 0 ? placeholder : match.replace(secret, placeholder);
        });
      }
      return out;
    },
  };
}

/** Filters out `TOKEN=process.env.X`-style code and plain words, keeping values that look like secrets. */
function looksLikeSecretValue(value: string): boolean {
  if (/^(true|false|null|none|undefined|required|optional|string|number|boolean)$/i.test(value)) return false;
  if (/^(process\.env|os\.environ|env\.|getenv|config\.|settings\.|self\.|this\.)/i.test(value)) return false;
  if (/^[a-z]+$/.test(value) && value.length < 16) return false;
  if (/^[A-Z_]+$/.test(value)) return false;
  return /[0-9]/.test(value) || /[A-Z]/.test(value) && /[a-z]/.test(value) || value.length >= 20;
}

/**
 * Redacts every string inside a JSON-like value (objects, arrays), returning a new value. A part nested
 * deeper than MAX_JSON_DEPTH is kept as its JSON text, redacted as text: the walk never overflows the stack.
 */
export function redactValue<T>(value: T, redactor: Redactor, depth = 0): T {
  if (typeof value === 'string') return redactor.redact(value) as T;
  if (value && typeof value === 'object' && depth >= MAX_JSON_DEPTH) return redactor.redact(stringifyJson(value) ?? '') as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redactor, depth + 1)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactValue(v, redactor, depth + 1);
    return out as T;
  }
  return value;
}
