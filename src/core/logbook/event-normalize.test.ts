// Reply events to timeline events: redacted texts, citations by chunk id, timestamps taken from the
// cited message (a time not in the chunk is corrected, never kept), clipped fields, refused content.
import { describe, expect, it } from 'vitest';
import { normalizeEvents, type ConversationMessage } from './index.js';

const message = (
  chunkId: string,
  number: number,
  timestamp: string | null,
  session = 'conv-1',
): ConversationMessage => ({
  chunkId,
  session,
  agent: 'codex',
  number,
  role: 'assistant',
  timestamp,
  text: 'x',
  failed: false,
});
const MESSAGES = [
  message('1', 1, '2026-05-01T10:00:00Z'),
  message('2', 2, '2026-05-01T10:05:00.000Z'),
  message('a1.3', 3, '2026-05-01T10:07:00Z', 'sub-1'),
  message('4', 4, null),
];
const stats = () => ({ kept: 0, dropped: {} as Record<string, number> });

describe('normalizeEvents', () => {
  it('cites the message by its chunk id (as given, as a number or as [N]) and takes its time', () => {
    const out = normalizeEvents(
      [
        {
          type: 'fact',
          content: 'The subagent found the config loader',
          timestamp: '2030-01-01T00:00:00Z',
          source: { message_id: 'a1.3' },
        },
        {
          type: 'fact',
          content: 'The retry budget is four attempts',
          timestamp: '2026-05-01T10:00:00Z',
          source: { message_id: 2 },
        },
        {
          type: 'bug',
          content: 'The cache key ignored the model name',
          source: { message_id: '[1]' },
          resolution: 'key includes the model now',
        },
      ],
      'conv-1',
      MESSAGES,
      stats(),
    );
    expect(out.map((e) => [e.timestamp, e.source.session, e.source.message, e.source.message_id])).toEqual([
      ['2026-05-01T10:07:00.000Z', 'sub-1', 3, 'a1.3'],
      ['2026-05-01T10:05:00.000Z', 'conv-1', 2, '2'],
      ['2026-05-01T10:00:00.000Z', 'conv-1', 1, '1'],
    ]);
    expect(out[2]!.resolution).toBe('key includes the model now');
  });

  it('drops and counts an event whose citation is missing or names no message of the chunk', () => {
    const counted = stats();
    const out = normalizeEvents(
      [
        { type: 'decision', content: 'Keep the runner sequential by default', timestamp: '2026-05-01T10:05:00Z' },
        { type: 'decision', content: 'Ship the parallel mode behind a flag', source: { message_id: 99 } },
        { type: 'decision', content: 'Cache replies by prompt hash', source: { message_id: '[2]' } },
      ],
      'conv-1',
      MESSAGES,
      counted,
    );
    expect(out.map((e) => [e.content, e.source.message])).toEqual([['Cache replies by prompt hash', 2]]);
    expect(counted.dropped['cited message not in the chunk']).toBe(2);
  });

  it('redacts every text field, clips long fields, keeps one line of code and a resolution only for bugs', () => {
    const s = stats();
    const [event] = normalizeEvents(
      [
        {
          type: 'decision',
          content: `Rotate the key AKIAABCDEFGHIJKLMNOP used by the deploy job ${'and more words '.repeat(40)}`,
          rationale: 'the token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked',
          alternatives: ['keep sk-ant-abcdefghijklmnopqrstuvwxyz01'],
          code: 'export KEY=1\nsecond',
          resolution: 'not a bug',
          source: { message_id: '1' },
        },
      ],
      'conv-1',
      MESSAGES,
      s,
    );
    expect(event!.content).toMatch(/^Rotate the key \[REDACTED:aws-key\] used by/);
    expect(event!.content.length).toBeLessThanOrEqual(300);
    expect(event!.rationale).toBe('the token [REDACTED:github-token] leaked');
    expect(event!.alternatives).toEqual(['keep [REDACTED:anthropic-key]']);
    expect(event!.code).toBe('export KEY=1');
    expect(event!.resolution).toBeUndefined();
    expect(s.kept).toBe(1);
  });

  it('refuses unknown types, empty content, bare ids and paths, and non-objects, counting each reason', () => {
    const s = stats();
    const out = normalizeEvents(
      [
        { type: 'todo', content: 'Write more tests for it' },
        { type: 'fact', content: '  ' },
        { type: 'fact', content: 'src/core/logbook/dedupe.ts' },
        { type: 'fact', content: '3f2a9c1e-1111-4222-8333-444455556666' },
        'text',
        null,
      ],
      'conv-1',
      MESSAGES,
      s,
    );
    expect(out).toEqual([]);
    expect(s.dropped).toEqual({ 'unknown type': 1, 'empty content': 1, 'only an id or a path': 2, 'not an object': 2 });
  });
  it('dates the events of an export with no time at all by the conversation, instead of dropping them', () => {
    const untimed = [message('1', 1, null), message('2', 2, null)];
    const reply = [
      { type: 'bug', content: 'KeyError on positions after the switch to dicts', source: { message_id: '2' } },
    ];
    const dropped = stats();
    expect(normalizeEvents(reply, 'conv-1', untimed, dropped)).toEqual([]);
    expect(dropped.dropped).toEqual({ 'no timestamp in the chunk': 1 });
    const [event] = normalizeEvents(reply, 'conv-1', untimed, stats(), '2026-11-28T23:00:17.033Z');
    expect(event).toMatchObject({ timestamp: '2026-11-28T23:00:17.033Z', source: { message_id: '2' } });
  });
});
