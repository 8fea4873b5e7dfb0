// Owns the rules secretlint's preset has no rule for: more vendor token shapes, chat webhooks, Basic
// and Bearer headers, passwords on command lines, in URLs and in prose, Azure keys, truncated private
// keys, and secrets named by their variable (`KEY=value`, judged by the name's words and the value).
import type { RuleMatch } from './vendor-rules.js';
import { looksLikeKeyValue, looksLikePassword, isPlaceholder } from './secret-value.js';

export interface OwnRule {
  kind: string;
  hints: string[];
  /** Global, with indices (`dg`); the secret is the named group `secret`, else the whole match. */
  pattern: RegExp;
  accept?: (secret: string, text: string, match: RegExpExecArray) => boolean;
  /** A cheaper pattern every text the rule matches also matches, tried first. */
  prefilter?: RegExp;
}

/**
 * A URL with a user and password: `://`, then `user:password@` before any `/` or space. Its literal
 * start is found fast, where the full patterns start at each word (9 in 10 URLs have no password).
 */
export const URL_USERINFO_PREFILTER = /:\/\/[^\s/]*:[^\s/]*@/;

const SECRET_WORDS = new Set([
  'secret',
  'secrets',
  'password',
  'passwd',
  'pwd',
  'pass',
  'passphrase',
  'token',
  'apikey',
  'credential',
  'credentials',
  'auth',
  'privatekey',
  'accesskey',
  'accountkey',
  'sas',
]);
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'private',
  'secret',
  'account',
  'signing',
  'encryption',
  'master',
  'app',
  'auth',
  'client',
  'service',
  'shared',
  'license',
  'webhook',
  'deploy',
  'admin',
  'write',
  'read',
]);
/** Trailing words that leave the name's meaning: `TOKEN_VALUE` is a token, `TOKEN_COUNT` is not. */
const NEUTRAL_TAIL = new Set([
  'value',
  'str',
  'string',
  'b64',
  'base64',
  'hex',
  'raw',
  'plain',
  'text',
  'data',
  'env',
  'base',
]);
/** Hints for camelCase names ending in Key (`apiKey`); snake and kebab case are found by `_key`/`-key`. */
const KEY_HINTS = [...KEY_QUALIFIERS].map((q) => `${q}key`);
const PASSWORD_WORDS = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase']);

function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** 'password' | 'key' when a variable name says it holds a secret, else null. */
export function secretNameKind(name: string): 'password' | 'key' | null {
  const words = nameWords(name);
  while (words.length > 1 && NEUTRAL_TAIL.has(words[words.length - 1]!)) words.pop();
  const last = words[words.length - 1];
  if (last === undefined) return null;
  // `pass` alone is too common a word (`'Conditional Pass': 'bg-…'`); `REDIS_PASS` is a password.
  if (PASSWORD_WORDS.has(last)) return last === 'pass' && words.length < 2 ? null : 'password';
  if (SECRET_WORDS.has(last)) return 'key';
  // Run-together names: PGPASSWORD, CSRFTOKEN, OPENAIAPIKEY.
  if (/(?:password|passwd)$/.test(last)) return 'password';
  if (/(?:secret|token|apikey|accesskey|privatekey)$/.test(last)) return 'key';
  if (last === 'key' && words.length > 1 && KEY_QUALIFIERS.has(words[words.length - 2]!)) return 'key';
  return null;
}

const IDENT = /[A-Za-z0-9_.-]/;
/** The identifier that ends at `end`, read backwards (the keyword the regex found may sit inside it). */
function nameBefore(text: string, start: number, end: number): string {
  let i = start;
  while (i > 0 && IDENT.test(text[i - 1]!)) i--;
  return text.slice(i, end);
}

function basicCredential(secret: string): boolean {
  try {
    const decoded = /^([\x20-\x7e]+?):([\x20-\x7e]+)$/.exec(Buffer.from(secret, 'base64').toString('utf8'));
    return decoded !== null && !isPlaceholder(decoded[2]!);
  } catch {
    return false;
  }
}

const trimmedPassword = (value: string): string => value.replace(/[.,;:)\]]+$/, '');

/** What comes before a password named without a verb ("with password X", "passwd X", "pw: X"). */
const PROSE_PASSWORD_LEADS = [
  /\b(?:with|using|via|my|the|our|your|new|old)\s+(?:password|passphrase)\s+/.source,
  /(?<![/.\w-]|(?:[;&|$#>]|\bsudo|\bdoas)\s*)\bpasswd\s+/.source,
  /\bpw\s*[:=]\s*/.source,
];

export const OWN_RULES: OwnRule[] = [
  { kind: 'aws-key', hints: ['akia', 'asia'], pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/dg },
  { kind: 'google-api-key', hints: ['aiza'], pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/dg },
  { kind: 'google-oauth-secret', hints: ['gocspx-'], pattern: /\bGOCSPX-[A-Za-z0-9_-]{24,}/dg },
  { kind: 'anthropic-key', hints: ['sk-ant-'], pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/dg },
  {
    kind: 'openai-key',
    hints: ['sk-proj-', 'sk-svcacct-', 'sk-admin-'],
    pattern: /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/dg,
  },
  {
    kind: 'api-key',
    hints: ['sk-'],
    pattern: /\bsk-(?:or-v1-)?[A-Za-z0-9]{32,}(?![A-Za-z0-9_-])/dg,
    accept: (s) => /\d/.test(s) && looksLikeKeyValue(s),
  },
  // Looser shapes than secretlint's exact lengths, for tokens of older or other formats of the same vendors.
  {
    kind: 'github-token',
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/dg,
  },
  // Whole, to its last part: secretlint's Slack rule stops an app-level token's long hex part at 40 characters.
  {
    kind: 'slack-token',
    hints: ['xox', 'xapp-'],
    pattern: /\b(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}/dg,
    accept: (s) => /\d/.test(s),
  },
  {
    kind: 'twilio-key',
    // `SK` and a hex digit: three characters, as the hint scan needs.
    hints: [...'0123456789abcdef'].map((c) => `sk${c}`),
    pattern: /\bSK[0-9a-f]{32}(?![0-9A-Za-z_])/dg,
    prefilter: /SK[0-9a-f]{32}/,
    accept: (s) => /\d/.test(s) && /[a-f]/.test(s),
  },
  // SendGrid keys are 69 characters (secretlint asks exactly that); older and other lengths exist.
  {
    kind: 'sendgrid-key',
    hints: ['sg.'],
    pattern: /\bSG\.[A-Za-z0-9_-]{16,40}\.[A-Za-z0-9_-]{30,90}(?![A-Za-z0-9_-])/dg,
    accept: (s) => looksLikeKeyValue(s.slice(3).replace('.', '')),
  },
  {
    kind: 'huggingface-token',
    hints: ['hf_'],
    pattern: /\bhf_[A-Za-z0-9]{30,}(?![A-Za-z0-9_-])/dg,
    accept: (s) => looksLikeKeyValue(s),
  },
  { kind: 'gitlab-token', hints: ['glpat-'], pattern: /\bglpat-[A-Za-z0-9_-]{20,}/dg },
  {
    kind: 'stripe-key',
    hints: ['sk_live', 'sk_test', 'rk_live', 'rk_test'],
    pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}/dg,
  },
  { kind: 'stripe-webhook-secret', hints: ['whsec_'], pattern: /\bwhsec_[A-Za-z0-9+/=]{24,}/dg },
  { kind: 'mailgun-key', hints: ['key-'], pattern: /\bkey-[0-9a-f]{32}\b/dg },
  { kind: 'pypi-token', hints: ['pypi-agei'], pattern: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/dg },
  { kind: 'digitalocean-token', hints: ['_v1_'], pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/dg },
  { kind: 'telegram-bot-token', hints: [':aa'], pattern: /\b\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/dg },
  { kind: 'age-secret-key', hints: ['age-secret-key-'], pattern: /\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/dg },
  { kind: 'jwt', hints: ['eyj'], pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/dg },
  {
    kind: 'bearer-token',
    hints: ['bearer'],
    pattern: /\bBearer\s+(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/dgi,
    accept: (s) => looksLikeKeyValue(s),
  },
  // Basic credentials follow an Authorization header name (the hint), which costs the scan nothing more.
  {
    kind: 'basic-auth',
    hints: ['auth'],
    pattern: /\bBasic\s+(?<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/dg,
    accept: basicCredential,
  },
  {
    kind: 'url-password',
    hints: ['://'],
    // The password may hold `@`: the host starts after the last `@` of the authority.
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'\\<>]+:(?<secret>[^\s/"'\\<>]+)@[^\s@/"'\\<>]+/dgi,
    prefilter: URL_USERINFO_PREFILTER,
    accept: (s) => s.length >= 3 && !isPlaceholder(s) && !/^(?:pass|pwd|secret|pw)$/i.test(s),
  },
  {
    kind: 'azure-key',
    hints: ['accountkey', 'sharedaccesskey'],
    pattern: /\b(?:AccountKey|SharedAccessKey)\s*=\s*(?<secret>[A-Za-z0-9+/]{20,}={0,2})/dgi,
  },
  { kind: 'azure-sas', hints: ['sig='], pattern: /[?&]sig=(?<secret>[A-Za-z0-9%+/]{20,}(?:%3D|=){0,2})/dg },
  {
    kind: 'discord-webhook',
    hints: ['api/webhooks/'],
    pattern:
      /https:\/\/(?:(?:canary|ptb)\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/(?<secret>[A-Za-z0-9_-]{20,})/dgi,
  },
  {
    kind: 'teams-webhook',
    hints: ['webhook.office', 'outlook.office'],
    pattern: new RegExp(
      /https:\/\/(?:[a-z0-9-]+\.webhook\.office\.com\/webhookb2|outlook\.office(?:365)?\.com\/webhook)/.source +
        /\/(?<secret>[^\s"'<>\\]{20,})/.source,
      'dgi',
    ),
  },
  {
    kind: 'cli-password',
    hints: ['mysql', 'mariadb'],
    pattern: /\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]{0,300}?\s-p(?<secret>[^\s'"\\`-][^\s'"\\`]*)/dg,
    accept: (s) => s.length >= 3 && !isPlaceholder(s),
  },
  {
    kind: 'cli-password',
    hints: ['curl'],
    pattern: /\bcurl\b[^\n|;&]{0,300}?\s(?:-u|--user)\s*(?:\\?["'])?[^\s:'"\\]+:(?<secret>[^\s'"\\`]{3,})/dg,
    accept: (s) => !isPlaceholder(s),
  },
  {
    kind: 'cli-password',
    hints: ['sshpass'],
    pattern: /\bsshpass\s+-p\s*(?:\\?["'])?(?<secret>[^\s'"\\`]{3,})/dg,
    accept: (s) => !isPlaceholder(s),
  },
  {
    kind: 'cli-password',
    hints: ['--password', '--passwd'],
    pattern: /(?:^|\s)--pass(?:word|wd)(?:=|\s+)(?:\\?["'])?(?<secret>[^\s'"\\`]{3,})/dg,
    accept: (s) => !isPlaceholder(s) && !s.startsWith('-'),
  },
  {
    kind: 'private-key',
    hints: ['private key'],
    // With or without its END line (a key cut short is still a key): the body up to END or the first
    // character no key body has. The BEGIN and END lines stay, to say what was there.
    pattern: new RegExp(
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?<secret>[A-Za-z0-9+/=\s\\:,.-]*?)/.source +
        /(?=-----END|[^A-Za-z0-9+/=\s\\:,.-]|$)/.source,
      'dg',
    ),
    accept: (s) => s.replace(/\\[nrt]|\s/g, '').length >= 16,
  },
  {
    kind: 'password-in-prose',
    hints: ['passw', 'pwd', 'passphrase'],
    pattern: new RegExp(
      /\b(?:password|passwd|passphrase|pwd)\s+(?:is|was|will be|would be|should be|=|:)\s*:?\s*/.source +
        /(?:\\?["'`])?(?<secret>[^\s"'`\\]{4,})/.source,
      'dgi',
    ),
    accept: (s) => looksLikePassword(trimmedPassword(s)),
  },
  {
    kind: 'password-in-prose',
    hints: ['passw', 'passphrase', 'pw:', 'pw='],
    // "with password X", "my password X", "passwd X", "pw: X": no verb, so the value must hold a digit or a
    // symbol, and a `passwd` that is the command (line start, after sudo, a pipe) or a path is left alone.
    pattern: new RegExp(
      `(?:${PROSE_PASSWORD_LEADS.join('|')})` + /(?<quote>\\?["'`])?(?<secret>[^\s"'`\\]{6,})/.source,
      'dgi',
    ),
    accept: (s, _text, m) => {
      const value = trimmedPassword(s);
      if (m.groups?.quote === undefined && !/^[A-Za-z0-9]/.test(value)) return false;
      return /[^A-Za-z]/.test(value) && looksLikePassword(value);
    },
  },
  {
    kind: 'env-secret',
    hints: [
      'secret',
      'token',
      'passw',
      'pwd',
      '_pass',
      'pass_',
      '-pass',
      'credential',
      'auth',
      '_key',
      '-key',
      '.key',
      ...KEY_HINTS,
    ],
    // Anchored on the keyword (fast), the whole name read back from it; quotes may be JSON-escaped (a
    // tool input as JSON text). The value may hold `$` (only a leading `$` makes it a variable). Every
    // repetition before the value is bounded, so a long run of keywords costs linear time.
    pattern: new RegExp(
      /(?:secret|token|passw|pwd|pass|credential|auth|key)[A-Za-z0-9_.-]{0,64}(?:\\?["'])?\]?\s*/.source +
        /(?:=|:=|:|=>)\s*(?:\\?["'`])?(?<secret>[^\s"'\\<>{}(),;&`|]+)/.source,
      'dgi',
    ),
    accept: (s, text, m) => {
      const sep = /(?:\\?["'])?\]?\s*(?:=|:=|:|=>)/.exec(m[0])!;
      const name = nameBefore(text, m.index, m.index + sep.index);
      if (/^--?pass/.test(name)) return false;
      const kind = secretNameKind(name);
      const value = s.replace(/[.,:]+$/, '');
      return kind === 'password' ? looksLikePassword(value) : kind === 'key' ? looksLikeKeyValue(value) : false;
    },
  },
];

/** Runs one own rule over `text`, adding the secrets it accepts to `out`. */
export function runOwnRule(rule: OwnRule, text: string, out: RuleMatch[]): void {
  if (rule.prefilter && !rule.prefilter.test(text)) return;
  rule.pattern.lastIndex = 0;
  for (let m = rule.pattern.exec(text); m !== null; m = rule.pattern.exec(text)) {
    if (m[0].length === 0) rule.pattern.lastIndex++;
    const span = m.indices?.groups?.secret ?? m.indices?.[0];
    if (!span) continue;
    let [start, end] = span;
    let secret = text.slice(start, end);
    if (rule.kind === 'password-in-prose') {
      secret = trimmedPassword(secret);
      end = start + secret.length;
    }
    if (end <= start || secret.includes('[REDACTED')) continue;
    if (rule.accept && !rule.accept(secret, text, m)) continue;
    out.push({ kind: rule.kind, start, end });
  }
}
