// deduplicate_timeline: same type and a token-set similarity of the normalised contents >= 0.85.
import { describe, expect, it } from 'vitest';
import { contentTokens, deduplicateTimeline, similarity, type TimelineEvent } from './index.js';

let n = 0;
const event = (
  type: TimelineEvent['type'],
  content: string,
  timestamp = `2026-01-0${1 + (n % 9)}T10:00:00.000Z`,
): TimelineEvent => ({
  timestamp,
  type,
  content,
  source: { conversation_id: 'c', message_id: String(++n), session: 'c', message: n, agent: 'claude-code' },
});

describe('deduplicateTimeline', () => {
  it('drops near-duplicates (case, punctuation, articles, plurals, word order) and keeps the older event', () => {
    const older = event('decision', 'Use SQLite for the parse cache.', '2026-01-01T10:00:00.000Z');
    const newer = event('decision', 'use sqlite for parse caches', '2026-01-05T10:00:00.000Z');
    const reordered = event('decision', 'For the parse cache, use SQLite', '2026-01-06T10:00:00.000Z');
    expect(similarity(contentTokens(older.content), contentTokens(newer.content))).toBe(1);
    expect(deduplicateTimeline([newer, reordered, older])).toEqual([older]);
  });

  it('keeps events that only look alike: another type, another choice, another number', () => {
    const events = [
      event('decision', 'Use SQLite for the parse cache'),
      event('fact', 'Use SQLite for the parse cache'),
      event('decision', 'Use Postgres for the parse cache'),
      event('bug', 'The lock file is left behind after a crash on Linux'),
      event('bug', 'The lock file is left behind after a crash on macOS'),
      event('fact', 'The cache must stay under 50 MB'),
      event('fact', 'The cache must stay under 500 MB'),
    ];
    expect(deduplicateTimeline(events)).toEqual(events);
  });

  it('keeps the input order of what it keeps', () => {
    const a = event('fact', 'Node 20 is the oldest supported runtime', '2026-01-03T00:00:00.000Z');
    const b = event('fact', 'The store is one SQLite file', '2026-01-01T00:00:00.000Z');
    const c = event('fact', 'node 20 is the oldest supported runtime!', '2026-01-04T00:00:00.000Z');
    expect(deduplicateTimeline([c, a, b])).toEqual([a, b]);
  });
});
