// Owns secret redaction for every text that leaves strata (the store, history indexes, context packs,
// MCP replies): `redactText` replaces each secret, and only the secret, with `[REDACTED:<kind>]`.
// Rules: secretlint's recommended preset (vendor-rules.ts) and our own (own-rules.ts), each tried only
// on texts holding one of its keywords (hint-scan.ts).
import { createHintScanner } from './hint-scan.js';
import { OWN_RULES, runOwnRule } from './own-rules.js';
import { vendorRules, type RuleMatch } from './vendor-rules.js';

export interface SecretFinding {
  kind: string;
  /** Offsets of the secret in the text given (never the value). */
  start: number;
  end: number;
}

export interface RedactResult {
  text: string;
  findings: SecretFinding[];
}

interface AnyRule {
  hints: string[];
  run(text: string, out: RuleMatch[]): void;
}

const RULES: AnyRule[] = [
  ...vendorRules,
  ...OWN_RULES.map((rule) => ({
    hints: rule.hints,
    run: (text: string, out: RuleMatch[]) => runOwnRule(rule, text, out),
  })),
];
const scanner = createHintScanner(RULES.map((rule) => rule.hints));

const placeholderFor = (kind: string): string => `[REDACTED:${kind}]`;

/** A span without the white space (or JSON-escaped line breaks) at its ends: a key body's line breaks stay. */
function trimmed(text: string, f: RuleMatch): RuleMatch {
  let { start, end } = f;
  for (;;) {
    if (start < end && /\s/.test(text[start]!)) start++;
    else if (start + 1 < end && text[start] === '\\' && /[nrt]/.test(text[start + 1]!)) start += 2;
    else break;
  }
  for (;;) {
    if (end > start && /\s/.test(text[end - 1]!)) end--;
    else if (end - 1 > start && text[end - 2] === '\\' && /[nrt]/.test(text[end - 1]!)) end -= 2;
    else break;
  }
  return { kind: f.kind, start, end };
}

/** The secrets in `text`, without overlaps (the earliest wins; at the same start, the longest). */
export function findSecrets(text: string): SecretFinding[] {
  if (text.length < 8) return [];
  const hinted = scanner.scan(text);
  if (hinted === null) return [];
  const raw: RuleMatch[] = [];
  for (const i of hinted) RULES[i]!.run(text, raw);
  if (raw.length === 0) return [];
  // A placeholder of an earlier redaction is never a secret (redacting twice changes nothing).
  const found = raw
    .map((f) => trimmed(text, f))
    .filter((f) => f.end > f.start && !text.slice(f.start, f.end).includes('[REDACTED:'));
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: SecretFinding[] = [];
  let reached = -1;
  for (const f of found) {
    if (f.start < reached) continue;
    kept.push({ kind: f.kind, start: f.start, end: f.end });
    reached = f.end;
  }
  return kept;
}

/** `text` with each secret replaced by `[REDACTED:<kind>]`, and what was replaced where. */
export function redactText(text: string): RedactResult {
  const findings = findSecrets(text);
  if (findings.length === 0) return { text, findings };
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start) + placeholderFor(f.kind);
    at = f.end;
  }
  return { text: out + text.slice(at), findings };
}
