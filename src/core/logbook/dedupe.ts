// Owns deduplicate_timeline, which the spec leaves undefined: two events are duplicates when they have
// the same type and the token sets of their normalised contents have a Jaccard similarity of at least
// the threshold (0.85); the older event (the first citation) is kept.
import type { TimelineEvent } from './types.js';

const DEFAULT_SIMILARITY = 0.85;

const STOP = new Set([
  'a',
  'an',
  'the',
  'to',
  'of',
  'in',
  'on',
  'for',
  'and',
  'or',
  'is',
  'are',
  'was',
  'were',
  'be',
  'we',
  'it',
  'this',
  'that',
  'with',
  'as',
  'by',
  'at',
]);

/** Lower case, punctuation to spaces, stop words dropped, a trailing plural `s` removed. */
export function contentTokens(content: string): Set<string> {
  const tokens = new Set<string>();
  for (const word of content
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_./-]+/gu, ' ')
    .split(' ')) {
    const w = word.replace(/^[./-]+|[./-]+$/g, '');
    if (w === '' || STOP.has(w)) continue;
    tokens.add(w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);
  }
  return tokens;
}

export function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

function byTimeThenOrder(a: { e: TimelineEvent; i: number }, b: { e: TimelineEvent; i: number }): number {
  return a.e.timestamp < b.e.timestamp ? -1 : a.e.timestamp > b.e.timestamp ? 1 : a.i - b.i;
}

/** The events without duplicates, in their input order. */
export function deduplicateTimeline(events: readonly TimelineEvent[], threshold = DEFAULT_SIMILARITY): TimelineEvent[] {
  const kept: Array<{ type: string; tokens: Set<string> }> = [];
  const keep = new Set<number>();
  for (const { e, i } of events.map((e, i) => ({ e, i })).sort(byTimeThenOrder)) {
    const tokens = contentTokens(e.content);
    if (kept.some((k) => k.type === e.type && similarity(k.tokens, tokens) >= threshold)) continue;
    kept.push({ type: e.type, tokens });
    keep.add(i);
  }
  return events.filter((_, i) => keep.has(i));
}

/** Newest first; ties keep a stable order (by citation). */
export function sortNewestFirst(events: TimelineEvent[]): TimelineEvent[] {
  return events.sort((a, b) =>
    a.timestamp < b.timestamp
      ? 1
      : a.timestamp > b.timestamp
        ? -1
        : a.source.session.localeCompare(b.source.session) || b.source.message - a.source.message,
  );
}

/** The spec's truncate_logbook: keep the newest `max` events. */
export function truncateTimeline(events: TimelineEvent[], max: number): TimelineEvent[] {
  return events.length <= max ? events : sortNewestFirst(events).slice(0, max);
}
