// Options only offered are no decisions unless the user picks one, and hedged diagnoses in any of the
// five languages are never decisions or bugs.
import { describe, expect, it } from 'vitest';
import { extractLogbookEvents, type LogbookChunkMessage } from '../index.js';

type Message = Omit<LogbookChunkMessage, 'id' | 'timestamp'>;
const events = (messages: Message[]): Array<[string, string]> =>
  extractLogbookEvents({
    conversationId: 'c1',
    messages: messages.map((m, i) => ({ ...m, id: String(i + 1), timestamp: `2026-03-01T10:${10 + i}:00.000Z` })),
    existingEvents: [],
  }).events.map((e) => [e.type, e.content]);
const agent = (text: string): Message => ({ role: 'assistant', text });
const user = (text: string): Message => ({ role: 'user', text });

const offer = agent(
  '두 가지 방법이 있습니다.\n\n' +
    '1. `/model` 명령으로 Sonnet으로 전환한 후에 15개 파일을 직접 변환합니다.\n' +
    '2. Sonnet 서브에이전트 3개를 병렬로 띄워서 파일을 나눠 변환하기로 합니다.\n\n' +
    '어느 방법으로 진행할까요?',
);

describe('extractive logbook: options offered and hedges', () => {
  it('takes no decision from a numbered list of options the agent asks the user to choose from', () => {
    expect(events([offer])).toEqual([]);
    const numbered = agent(
      'Two ways to convert the guides:\n\n' +
        '1. We switch to Sonnet with `/model` and convert the 15 files here in this session.\n' +
        '2. We switch to three Sonnet subagents that convert five files each in parallel.\n\nWhich do you prefer?',
    );
    expect(events([numbered])).toEqual([]);
    expect(
      events([
        agent(
          'Option A: switch the queue to Redis streams for ordering.\n' +
            'Option B: keep Postgres and use SKIP LOCKED instead of polling.\n\nWhich way do you prefer?',
        ),
      ]),
    ).toEqual([]);
  });

  it("keeps the option the user's reply picks, in the user's words and the option's text", () => {
    expect(events([offer, user('2번으로 해줘')])).toEqual([
      ['decision', '2번으로 해줘 — Sonnet 서브에이전트 3개를 병렬로 띄워서 파일을 나눠 변환하기로 합니다.'],
    ]);
    const picked = events([
      agent('Option A: switch the queue to Redis streams.\nOption B: keep Postgres with SKIP LOCKED.\n\nWhich one?'),
      user('B, we already run Postgres everywhere'),
    ]);
    expect(picked).toEqual([['decision', 'B, we already run Postgres everywhere — keep Postgres with SKIP LOCKED.']]);
    // Plan steps listed before the options are not what "the first option" picks.
    const plan = agent(
      "Here's the plan:\n1. Write a script that polls the mailbox\n2. Light the LED on new mail\n" +
        'A few ways to authenticate:\n- **Device code flow**: sign in once in a browser\n' +
        '- **Reuse the session token**\nWhich direction sounds best?',
    );
    expect(events([plan, user('first option sounds easy')])).toEqual([
      ['decision', 'first option sounds easy — Device code flow: sign in once in a browser'],
    ]);
  });

  it('takes no decision or bug from a hedged diagnosis in any of the five languages', () => {
    for (const text of [
      'Parece que las bases de datos están usando `Set` en lugar de `List` para las expresiones.',
      'It looks like the cache is switched to `lru-cache` instead of the map we decided on.',
      '看起来是因为 `selectedGroups` 改为空数组导致的问题。',
      '`startDragging` 권한이 없어서 드래그가 안 되는 것 같습니다.',
      '設定ファイルを `config.ts` に変更したことが原因のようです。',
    ])
      expect(events([agent(text), agent('→ Edit: /repo/src/a.ts')]).filter(([type]) => type !== 'fact')).toEqual([]);
  });
});

describe('extractive logbook: a subject in the heading above', () => {
  it('puts the heading in place of the pronoun that points to it', () => {
    const found = events([user('## Fonts\n\nWe decided to bundle them locally instead of loading Google Fonts.')]);
    expect(found).toEqual([['decision', 'We decided to bundle fonts locally instead of loading Google Fonts.']]);
  });
});
