import { describe, expect, it } from 'vitest';
import { HistoryCorpus } from './history-corpus.js';
import { dropUbiquitousTopics, specificTopics, spreadImportance } from './extractive-refine.js';
import type { IndexSegment } from './types.js';

function segment(id: string, rawImportance: number, topics: string[] = []): IndexSegment {
  return {
    id,
    promptIds: [id],
    summary: '',
    topics,
    importanceScore: rawImportance,
    keyEntities: [],
    tokenCount: 1,
    hash: id,
    rawImportance,
  };
}

describe('history-aware refinement of offline summaries', () => {
  it('prefers terms specific to the segment over words used across the history, and never id fragments', () => {
    const corpus = new HistoryCorpus();
    for (let i = 0; i < 10; i++) corpus.add(`complete implementation of the stack, step ${i}`);
    const content =
      'User: Complete the implementation of the websocket reconnect backoff for the stack.\nAssistant: The websocket ' +
      'reconnect backoff now doubles the delay. Session 9f8e7d6c5b4a3921 closed.';
    corpus.add(content);
    const topics = specificTopics(content, corpus, ['feature', 'websocket']);
    expect(topics[0]).toBe('feature');
    expect(topics.slice(1, 3).join(' ')).toMatch(/websocket|reconnect|backoff/);
    expect(topics).not.toContain('implementation');
    expect(topics).not.toContain('complete');
    expect(topics.some((t) => /\d/.test(t))).toBe(false);
    expect(topics.length).toBeGreaterThanOrEqual(3);
  });

  it('spreads importance over the range by rank: no value on more than a quarter, no pile-up at 1', () => {
    const segments = [0.99, 0.99, 0.99, 0.99, 0.3, 0.3, 0.5, 0.65, 0.8, 0.9].map((r, i) => segment(`s${i}`, r));
    spreadImportance(segments);
    const scores = segments.map((s) => s.importanceScore);
    expect(scores.filter((s) => s >= 0.99)).toEqual([]);
    const counts = new Map<number, number>();
    for (const v of scores) counts.set(v, (counts.get(v) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(segments.length / 4);
    expect(Math.max(...scores) - Math.min(...scores)).toBeGreaterThan(0.6);
    // Order is kept: a higher raw score never ranks lower.
    const byRaw = [...segments].sort((a, b) => a.rawImportance! - b.rawImportance!);
    for (let i = 1; i < byRaw.length; i++)
      expect(byRaw[i]!.importanceScore).toBeGreaterThanOrEqual(byRaw[i - 1]!.importanceScore);
  });

  it('drops topics that tag more than half of the segments', () => {
    const segments = [
      segment('a', 0.5, ['feature', 'sqlite']),
      segment('b', 0.5, ['feature', 'login']),
      segment('c', 0.5, ['feature', 'oauth']),
      segment('d', 0.5, ['cache']),
    ];
    dropUbiquitousTopics(segments);
    expect(segments.map((s) => s.topics)).toEqual([['sqlite'], ['login'], ['oauth'], ['cache']]);
  });
});
