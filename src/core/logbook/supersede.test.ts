// A later decision on the same subject replaces the earlier one; unrelated decisions, and bugs or facts,
// all stay.
import { describe, expect, it } from 'vitest';
import { dropSupersededDecisions } from './supersede.js';
import type { TimelineEvent } from './types.js';

const event = (message: number, type: TimelineEvent['type'], content: string): TimelineEvent => ({
  timestamp: `2026-02-13T04:${String(10 + message).padStart(2, '0')}:00.000Z`,
  type,
  content,
  source: { conversation_id: 's1', message_id: String(message), session: 's1', message, agent: 'claude-code' },
});
const contents = (events: TimelineEvent[]): string[] => dropSupersededDecisions(events).map((e) => e.content);

describe('superseded decisions', () => {
  it('keeps the last of two decisions on the same subject', () => {
    expect(
      contents([
        event(10, 'decision', 'Front matter values in `docs/*.md` are written in Korean.'),
        event(30, 'decision', 'Front matter values in `docs/*.md` are written in English, except description.'),
      ]),
    ).toEqual(['Front matter values in `docs/*.md` are written in English, except description.']);
  });

  it('takes a shared code term with a reversal cue as the same subject', () => {
    expect(
      contents([
        event(10, 'decision', '`metadata.role`을 한국어로 변경'),
        event(40, 'decision', '`metadata.role`은 다시 영어로 둔다.'),
      ]),
    ).toEqual(['`metadata.role`은 다시 영어로 둔다.']);
  });

  it('keeps decisions on other subjects, the same subject without a reversal, and bugs', () => {
    const events = [
      event(1, 'decision', 'Use `pnpm` to manage dependencies in every package.'),
      event(2, 'bug', 'The build failed because `pnpm` was missing from the CI image.'),
      event(3, 'decision', 'CI runs `pnpm` with --frozen-lockfile on each pull request.'),
      event(4, 'decision', 'Fonts are bundled locally with @fontsource instead of Google Fonts.'),
    ];
    expect(contents(events)).toEqual(events.map((e) => e.content));
  });
});
