// Owns secret redaction at ingest: API keys of common vendors, bearer/JWT tokens, private key blocks,
// passwords in URLs and KEY=value secrets in .env-style text. Replaces each with `[REDACTED:<kind>]`.

interface SecretRule {
  kind: string;
  pattern: RegExp;
  /** Index of the capture group holding the secret (0 = the whole match). */
  group: number;
  /** Cheap pre-check: the rule can only match text containing one of these (case-sensitive) substrings. */
  needles?: string[];
}

const RULES: SecretRule[] = [
  { kind: 'private-key', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/g, group: 0, needles: ['PRIVATE KEY'] },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, group: 0, needles: ['sk-ant-'] },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, group: 0, needles: ['sk-'] },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g, group: 0, needles: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'] },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, group: 0, needles: ['glpat-'] },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, group: 0, needles: ['AKIA', 'ASIA'] },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g, group: 0, needles: ['AIza'] },
  { kind: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, group: 0, needles: ['xox'] },
  { kind: 'stripe-key', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}/g, group: 0, needles: ['_live_', '_test_'] },
  { kind: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}/g, group: 0, needles: ['hf_'] },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}/g, group: 0, needles: ['npm_'] },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, group: 0, needles: ['eyJ'] },
  { kind: 'bearer-token', pattern: /\b(Bearer\s+)([A-Za-z0-9._~+/-]{16,}=*)/g, group: 2 },
  { kind: 'url-password', pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@"'\\]+:)([^\s@/"'\\]{3,})(@)/gi, group: 2, needles: ['://'] },
  {
    kind: 'env-secret',
    // Anchored on the keyword, not on the start of the name that contains it (`MY_API_KEY=`): the same
    // secrets are found, without trying every prefix of every word (2.5x faster on real transcripts).
    // Quotes may be JSON-escaped: a tool call's text is its input as JSON (`"command":"export K=\"v\""`),
    // and a JSON key may be quoted (`"api_key": "v"`).
    pattern: /((?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[A-Za-z0-9_]*(?:\\?["'])?\s*[=:]\s*(?:\\?["'])?)([^\s"'\\$<>{}(),;]{8,})/gi,
    group: 2,
  },
];

/** Cheap pre-filter: text with none of these substrings cannot contain a secret we look for. */
const HINT = /sk-|gh[pousr]_|github_pat_|glpat-|AKIA|ASIA|AIza|xox|_live_|_test_|hf_|npm_|eyJ|bearer|:\/\/|PRIVATE KEY|secret|token|passw|api_?key|access_?key|credential|auth/i;

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
      if (!enabled || text.length < 8 || !HINT.test(text)) return text;
      let out = text;
      for (const rule of RULES) {
        if (rule.needles && !rule.needles.some((needle) => out.includes(needle))) continue;
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

/** Redacts every string inside a JSON-like value (objects, arrays), returning a new value. */
export function redactValue<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redactor)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactValue(v, redactor);
    return out as T;
  }
  return value;
}
