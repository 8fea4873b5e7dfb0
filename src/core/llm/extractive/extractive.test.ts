// Golden tests of the extractive provider on real Claude Code fixture sessions: byte-identical output
// on re-run, reviewed golden files, and specific sensible content (paths, decisions, rationale).
import { describe, expect, it } from 'vitest';
import { readClaudeFixture, renderSegment } from '../../../../test/support/llm-fixture-text.js';
import {
  buildLogbookRequest,
  buildSegmentSummaryRequest,
  createExtractiveProvider,
  extractLogbookEvents,
  LlmRunner,
  segmentSummarySchema,
  logbookReplySchema,
  summarizeSegment,
} from '../index.js';

const TINY = readClaudeFixture('claude-code/obra-episodic-memory/tiny-conversation.jsonl');
const LONG = readClaudeFixture('claude-code/obra-episodic-memory/long-conversation.jsonl');
const LONG_SEGMENT = LONG.slice(60, 140);

describe('extractive segment summary on real fixtures', () => {
  it('is byte-identical on re-run and matches the reviewed golden files', async () => {
    for (const [name, messages] of [
      ['tiny', TINY],
      ['long-60-140', LONG_SEGMENT],
    ] as const) {
      const content = renderSegment(messages);
      const first = JSON.stringify(summarizeSegment(content), null, 2);
      const second = JSON.stringify(summarizeSegment(content), null, 2);
      expect(second).toBe(first);
      await expect(first + '\n').toMatchFileSnapshot(`./golden/summary-${name}.json`);
    }
  });

  it('produces the history-index shape with sensible content', () => {
    const tiny = summarizeSegment(renderSegment(TINY));
    expect(segmentSummarySchema.safeParse(tiny).success).toBe(true);
    expect(tiny.keyEntities).toContain('CLAUDE.md');
    expect(tiny.summary.length).toBeGreaterThan(40);
    expect(tiny.summary.length).toBeLessThanOrEqual(1000);
    expect(tiny.topics.length).toBeGreaterThanOrEqual(3);
    expect(tiny.topics.length).toBeLessThanOrEqual(7);

    const long = summarizeSegment(renderSegment(LONG_SEGMENT));
    expect(long.keyEntities).toContain(
      '/Users/testuser/Documents/GitHub/example-org/example-project/src/agent/scenario-agent.ts',
    );
    expect(long.keyEntities).toContain('@langchain/langgraph');
    expect(long.keyEntities).not.toContain('process.env');
    expect(long.topics).toContain('container');
    expect(long.importanceScore).toBeGreaterThanOrEqual(0.5);
  });

  it('scores @/ markers and signals: breaking change high, routine formatting low', () => {
    const breaking = summarizeSegment(
      'user: update the API\nassistant: Done. @/breaking: renamed `openStore` to `openDatabase` in ' +
        'src/store/db.ts\nThis is a breaking change for callers.',
    );
    expect(breaking.importanceScore).toBe(1);
    expect(breaking.summary).toContain('Breaking: renamed `openStore` to `openDatabase`');
    expect(breaking.summary).not.toContain('@/');
    expect(breaking.keyEntities).toEqual(expect.arrayContaining(['src/store/db.ts', 'openStore']));
    const routine = summarizeSegment('user: fix the indentation in the readme\nassistant: Reformatted the readme.');
    expect(routine.importanceScore).toBeLessThanOrEqual(0.35);
  });
});

describe('extractive logbook events', () => {
  const chunk = {
    conversationId: 'conv-1',
    messages: [
      {
        id: 'm1',
        role: 'user',
        timestamp: '2026-01-15T10:00:00Z',
        text: 'Should we keep JSON files for the index or move to SQLite?',
      },
      {
        id: 'm2',
        role: 'assistant',
        timestamp: '2026-01-15T10:01:00Z',
        text:
          'We decided to store the index in SQLite instead of JSON files because concurrent writers corrupted ' +
          'the JSON. The bug was a race in `writeIndex()` when two hooks ran at once.',
      },
      {
        id: 'm3',
        role: 'assistant',
        timestamp: '2026-01-15T10:02:00Z',
        text:
          "Let's use better-sqlite3 rather than node-sqlite3 since it is synchronous and faster. Note that WAL " +
          'mode requires a local filesystem.',
      },
    ],
    existingEvents: [],
  };

  it('finds decisions with rationale and alternatives and noted facts, byte-identical on re-run', () => {
    const first = JSON.stringify(extractLogbookEvents(chunk));
    expect(JSON.stringify(extractLogbookEvents(chunk))).toBe(first);
    const { events } = JSON.parse(first) as ReturnType<typeof extractLogbookEvents>;
    expect(logbookReplySchema.safeParse({ events }).success).toBe(true);
    const sqlite = events.find((e) => e.content.includes('SQLite instead of JSON'));
    expect(sqlite).toMatchObject({
      type: 'decision',
      timestamp: '2026-01-15T10:01:00Z',
      rationale: 'concurrent writers corrupted the JSON',
      alternatives: ['JSON files'],
      source: { conversation_id: 'conv-1', message_id: 'm2' },
    });
    // The agent's account of a bug with no fix shown after it is half a bug: not logged.
    expect(events.find((e) => e.type === 'bug')).toBeUndefined();
    expect(events.find((e) => e.content.startsWith("Let's use better-sqlite3"))).toMatchObject({
      type: 'decision',
      alternatives: ['node-sqlite3'],
      rationale: 'it is synchronous and faster',
    });
    expect(events.find((e) => e.type === 'fact')?.content).toBe('Note that WAL mode requires a local filesystem.');
    expect(events.some((e) => e.content.endsWith('?'))).toBe(false);
  });

  it('skips events the logbook already holds', () => {
    const { events: first } = extractLogbookEvents(chunk);
    const { events: again } = extractLogbookEvents({ ...chunk, existingEvents: first });
    expect(again).toEqual([]);
  });

  it('finds nothing in a real fixture chunk that holds only a hedge ("If GPT-5 …, we\'d need …")', async () => {
    const input = { conversationId: 'long', messages: LONG_SEGMENT, existingEvents: [] };
    const out = JSON.stringify(extractLogbookEvents(input), null, 2);
    expect(JSON.stringify(extractLogbookEvents(input), null, 2)).toBe(out);
    await expect(out + '\n').toMatchFileSnapshot('./golden/logbook-long-60-140.json');
    expect((JSON.parse(out) as { events: unknown[] }).events).toEqual([]);
  });
});

describe('extractive provider through the runner', () => {
  it('answers both tasks from the structured input with no calls and no cost', async () => {
    const runner = new LlmRunner({ provider: createExtractiveProvider() });
    const summary = await runner.complete(
      buildSegmentSummaryRequest({ segmentId: 'tiny', content: renderSegment(TINY) }),
    );
    expect(summary.json).toEqual(summarizeSegment(renderSegment(TINY)));
    expect(summary.text).toBe(JSON.stringify(summary.json));
    const logbook = await runner.complete(
      buildLogbookRequest({ conversationId: 'tiny', messages: TINY, existingEvents: [] }),
    );
    // The tiny conversation states no decision, fact or bug: the answer is the extractive one, events or none.
    expect(logbook.json).toEqual(extractLogbookEvents({ conversationId: 'tiny', messages: TINY, existingEvents: [] }));
    expect(runner.stats()).toMatchObject({ calls: 0, localAnswers: 2, estimatedCostUsd: 0 });
  });
});
