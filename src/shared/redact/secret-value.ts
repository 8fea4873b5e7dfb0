// Owns the judgement "does this value look like a secret?" for rules keyed on a name (`KEY=value`,
// `--password X`, "the password is X"): placeholders, variable references, code and plain words are
// not secrets; random-looking strings are.

/** Shannon entropy in bits per character. */
function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  const n = value.length;
  for (const k of counts.values()) {
    const p = k / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const PLACEHOLDER_WORDS = new RegExp(
  '^(?:true|false|null|nil|none|undefined|required|optional|string|str|number|int|integer|bool|' +
    'boolean|object|any|unknown|void|bytes|list|dict|map|array|secret|password|passwd|token|' +
    'redacted|hidden|masked|example|sample|placeholder|changeme|default|empty|test|dummy|fake|' +
    String.raw`todo|tbd|xxx+|\*+|\.+)$`,
  'i',
);
const PLACEHOLDER_PARTS = new RegExp(
  /your[_-]?|[_-]here\b|change[_-]?me|^my[_-]?(?:password|pass|token|key|secret)|<[^>]*>|\{\{|\}\}|/.source +
    /\$\{|\[REDACTED|REDACTED|example|placeholder|changeme|xxxxxx|\*\*\*|\.\.\.|…/.source,
  'i',
);
/** Values that are code, not data: member access, calls, environment lookups, types. */
const CODE_LIKE = new RegExp(
  String.raw`^(?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*(?:\(\)?)?$|^[A-Za-z_$][\w$]*\(|^(?:process\.env|` +
    String.raw`os\.environ|env\.|getenv|config\.|settings\.|self\.|this\.|ctx\.|args\.|opts\.|options\.|` +
    String.raw`req\.|request\.)|^[A-Z][A-Za-z]*\[|^[a-z_]+\[[a-z_'"]`,
);

/** A value that stands for a secret without being one: a variable, a template, a placeholder, code. */
export function isPlaceholder(value: string): boolean {
  if (value.startsWith('$') || value.startsWith('%') || value.startsWith('@') || value.startsWith('&')) return true;
  if (PLACEHOLDER_WORDS.test(value) || PLACEHOLDER_PARTS.test(value)) return true;
  if (CODE_LIKE.test(value)) return true;
  if (/^(.)\1+$/.test(value)) return true;
  // A file path or a URL is where a secret is kept, not the secret.
  if (/^(?:~?\/|\.\.?\/|[A-Za-z]:\\)/.test(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return true;
  return false;
}

function classes(value: string): number {
  return (
    (/[a-z]/.test(value) ? 1 : 0) +
    (/[A-Z]/.test(value) ? 1 : 0) +
    (/[0-9]/.test(value) ? 1 : 0) +
    (/[^A-Za-z0-9]/.test(value) ? 1 : 0)
  );
}

/**
 * A token, key or secret named by its variable: at least 8 characters, random-looking (entropy of at
 * least 3 bits per character, two character classes, or 20+ characters of hex/base64), and no
 * placeholder, identifier or plain word.
 */
export function looksLikeKeyValue(value: string): boolean {
  if (value.length < 8 || isPlaceholder(value)) return false;
  // Keys are printable ASCII; text in another script is prose (`votre-clé-va-ici`).
  if (/[^\x21-\x7e]/.test(value)) return false;
  if (/^[a-z]+(?:[_-][a-z]+)*$/.test(value) || /^[A-Z]+(?:_[A-Z]+)*$/.test(value)) return false;
  if (/^[A-Za-z]+$/.test(value) && value.length < 24) return false;
  if (/^\d+(?:\.\d+)*$/.test(value)) return false;
  return shannonEntropy(value) >= 3 && classes(value) >= 2;
}

/**
 * A password named as one: people choose them, so entropy is not asked for, only that it is not a
 * placeholder or one plain word (at least 6 characters with a digit, a symbol or mixed case).
 */
export function looksLikePassword(value: string): boolean {
  if (value.length < 6 || isPlaceholder(value)) return false;
  if (/^[a-z]+$/.test(value) || /^[A-Z_]+$/.test(value)) return false;
  if (/^\d{1,5}$/.test(value)) return false;
  return classes(value) >= 2 || value.length >= 12;
}
