// Paragraph rules of the offline logbook: wrapped lines joined before sentences are cut, and a list's
// bullets kept from becoming one decision each.
import { describe, expect, it } from 'vitest';
import { events } from '../../../../test/support/logbook-events.js';
import { joinWrapped, listItems } from './logbook-paragraphs.js';

describe('wrapped paragraphs', () => {
  it('joins the hard-wrapped lines of a paragraph, CJK without a space', () => {
    expect(joinWrapped('We decided to keep the session cache in SQLite\nbecause the JSON file was corrupted.')).toBe(
      'We decided to keep the session cache in SQLite because the JSON file was corrupted.',
    );
    expect(joinWrapped('数据库连接池的大小我们决定改为二十个连接，因为默认的\n十个连接在高峰时不够用。')).toBe(
      '数据库连接池的大小我们决定改为二十个连接，因为默认的十个连接在高峰时不够用。',
    );
    expect(
      joinWrapped('認証はセッションではなくトークン方式に変更しました。理由は複数の\nサーバーで共有するためです。'),
    ).toBe('認証はセッションではなくトークン方式に変更しました。理由は複数のサーバーで共有するためです。');
  });

  it('leaves titles, list items, code, closed sentences and tool output apart', () => {
    const kept = [
      'Summary\nThe cache is gone.',
      'The cache moved to SQLite today.\nThe JSON file is no longer read.',
      '- first item of the list without a stop\n- second item',
      '```\nconst value = computeSomethingLong(argument)\nreturn value\n```',
      '/usr/lib/python3.12/site-packages/pydantic/config.py:291: Deprecated since version two\n  warnings.warn(x)',
    ];
    for (const text of kept) expect(joinWrapped(text)).toBe(text);
  });

  it('takes a wrapped decision whole, with its reason', () => {
    const text =
      'After the benchmark we decided to use Postgres for the event\nstore because SQLite locked under load.';
    const [event] = events([{ role: 'user', text }]);
    expect(event?.content).toBe(
      'After the benchmark we decided to use Postgres for the event store because SQLite locked under load.',
    );
  });
});

describe('list items', () => {
  it('lists the items of lists of two or more', () => {
    expect(listItems('Intro:\n- one thing\n- **two** things\n\nAlone:\n- three')).toEqual(['one thing', 'two things']);
  });

  it("takes no decision from an agent's bullets without a reason, and one at most with reasons", () => {
    const bullets = [
      'Changes made:',
      '- Switched to `vitest` for the unit tests',
      '- Switched to `pnpm` for installs',
      '- Switched to `biome` for formatting',
    ].join('\n');
    expect(events([{ role: 'assistant', text: bullets }])).toEqual([]);
    const reasoned = [
      'Changes made:',
      '- Switched to `vitest` because jest could not load ESM modules',
      '- Switched to `pnpm` because npm was too slow on CI',
    ].join('\n');
    expect(events([{ role: 'assistant', text: reasoned }])).toHaveLength(1);
  });
});

describe('event details', () => {
  it('reads no "A vs B" as alternatives', () => {
    const [vs] = events([{ role: 'user', text: 'We decided to keep `pnpm` after the pnpm vs npm benchmark on CI.' }]);
    expect(vs?.type).toBe('decision');
    expect(vs?.alternatives).toBeUndefined();
  });
});
