// Owns parsing of time filters: relative spans (`30m`, `2h`, `7d`, `1w`) and ISO dates/times.
import { usageError } from './errors.js';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parses `30m` / `2h` / `7d` / `1w` (before `now`) or an ISO date/time into an ISO timestamp. */
export function parseTimeSpec(spec: string, now: Date = new Date()): string {
  const trimmed = spec.trim();
  const rel = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(trimmed);
  if (rel) {
    const ms = Number(rel[1]) * (UNIT_MS[rel[2]!.toLowerCase()] ?? 0);
    const at = new Date(now.getTime() - ms);
    // A span reaching past what a date can hold (about 273,000 years) is a usage error, not a crash.
    if (Number.isNaN(at.getTime())) throw usageError(`invalid time "${spec}": the span is too long`);
    return at.toISOString();
  }
  if (/^\d{4}-\d{2}(-\d{2})?([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(trimmed)) {
    const date = new Date(trimmed.length === 7 ? `${trimmed}-01` : trimmed);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  throw usageError(
    `invalid time "${spec}": use a span like 30m, 2h, 7d, 1w or an ISO date like 2025-11-02 or 2025-11-02T10:00`,
  );
}
