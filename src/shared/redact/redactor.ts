// Owns redaction with bookkeeping, for pipelines that redact many texts (ingest): counts by kind, and
// where each secret was found (kind, session, message; never the value) for `--redaction-report`.
import { MAX_JSON_DEPTH, stringifyJson } from '../bounded-json.js';
import { redactText } from './redact-text.js';

export interface RedactionLocation {
  session: string;
  /** The message's key within its session (empty: the session's own title or metadata). */
  message: string;
  /** 1-based line of the message in its source file (entry index for other formats). */
  line: number;
}

export interface RedactionEntry extends RedactionLocation {
  kind: string;
}

export interface Redactor {
  redact(text: string): string;
  /** Findings from now on are recorded at this message (undefined: not recorded). */
  at(location: RedactionLocation | undefined): void;
  /** Number of secrets replaced so far. */
  readonly count: number;
  readonly byKind: Record<string, number>;
  /** One entry per secret replaced while a location was set. */
  readonly entries: RedactionEntry[];
}

export function createRedactor(enabled = true): Redactor {
  const byKind: Record<string, number> = {};
  const entries: RedactionEntry[] = [];
  let location: RedactionLocation | undefined;
  let count = 0;
  return {
    get count() {
      return count;
    },
    byKind,
    entries,
    at(where) {
      location = where;
    },
    redact(text: string): string {
      if (!enabled) return text;
      const { text: out, findings } = redactText(text);
      for (const f of findings) {
        count++;
        byKind[f.kind] = (byKind[f.kind] ?? 0) + 1;
        if (location) entries.push({ kind: f.kind, ...location });
      }
      return out;
    },
  };
}

/** Redacts every string inside a JSON-like value (objects, arrays), returning a new value. */
export function redactValue<T>(value: T, redactor: Redactor, depth = 0): T {
  if (typeof value === 'string') return redactor.redact(value) as T;
  // Past the depth bound the rest is redacted as JSON text, so a hostile nesting costs no stack.
  if (value && typeof value === 'object' && depth >= MAX_JSON_DEPTH)
    return redactor.redact(stringifyJson(value) ?? '') as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redactor, depth + 1)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactValue(v, redactor, depth + 1);
    return out as T;
  }
  return value;
}
