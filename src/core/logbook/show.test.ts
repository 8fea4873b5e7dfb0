// logbookForProject, what the session-start hook and the MCP server call: the stored logbook of a
// folder or of the nearest enclosing workspace, filtered by type and time, newest first within a budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../shared/tokenizer.js';
import { createExtractiveProvider, LlmRunner } from '../llm/index.js';
import { logbookForProject, runLogbook } from './index.js';
import { usefulness } from './show.js';
import type { TimelineEvent } from './types.js';
import type { Store } from '../../store/db.js';
import { storeWith } from '../../../test/support/logbook-sessions.js';

const CWD = '/work/app';
let store: Store;

beforeAll(async () => {
  ({ store } = await storeWith([
    {
      id: '77777777-aaaa-4aaa-8aaa-000000000001',
      cwd: CWD,
      start: '2026-01-01T09:00:00.000Z',
      turns: [
        { user: 'Pick a store for the index.' },
        { assistant: 'We decided to use SQLite instead of JSON files because writes must be atomic.' },
      ],
    },
    {
      id: '88888888-bbbb-4bbb-8bbb-000000000002',
      cwd: CWD,
      start: '2026-02-01T09:00:00.000Z',
      turns: [
        { user: 'Note that the export must stay under 10 MB for the upload service.' },
        { assistant: 'Understood.' },
      ],
    },
    {
      id: '99999999-cccc-4ccc-8ccc-000000000003',
      cwd: CWD,
      start: '2026-03-01T09:00:00.000Z',
      turns: [
        { user: 'The bug was a race in the lock file cleanup when two hooks ran at once.' },
        { assistant: "Let's go with a lock that names its holder rather than a bare file." },
      ],
    },
  ]));
  await runLogbook({
    store,
    workspace: CWD,
    selection: { kind: 'project', project: CWD },
    runner: new LlmRunner({ provider: createExtractiveProvider() }),
  });
});

afterAll(() => store.close());

describe('logbookForProject', () => {
  it('serves the workspace and its subfolders, newest first', () => {
    const view = logbookForProject(store.db, '/work/app/src/deep');
    expect(view.workspace).toBe(CWD);
    expect(view.events.map((e) => e.type)).toEqual(['decision', 'bug', 'fact', 'decision']);
    expect(view.text.split('\n')[0]).toMatch(/^Project logbook: \/work\/app /);
    expect(view.text).toContain('[strata read 99999999-cccc-4ccc-8ccc-000000000003 2]');
    expect(logbookForProject(store.db, '/work/application').workspace).toBeNull();
    expect(logbookForProject(store.db, '/elsewhere')).toMatchObject({ workspace: null, text: '', events: [] });
  });

  it('filters by type and time and cuts the least useful events to the token budget', () => {
    expect(logbookForProject(store.db, CWD, { types: ['fact'] }).events.map((e) => e.content)).toEqual([
      'Note that the export must stay under 10 MB for the upload service.',
    ]);
    expect(logbookForProject(store.db, CWD, { since: '2026-02-15T00:00:00.000Z' }).events).toHaveLength(2);
    const full = logbookForProject(store.db, CWD);
    const budget = countTokens(full.text) - 5;
    const cut = logbookForProject(store.db, CWD, { budget });
    // The least useful events (the user's note and the user's bug report tie) lose the older one first.
    expect(cut.events.map((e) => e.type)).toEqual(['decision', 'bug', 'decision']);
    expect(countTokens(cut.text)).toBeLessThanOrEqual(budget);
    expect(cut.matching).toBe(full.events.length);
    expect(logbookForProject(store.db, CWD, { budget: 3 }).text).toBe('');
  });
});

describe('logbookForProject under a budget (what the session-start hook injects)', () => {
  it("keeps the user's own decision before newer agent facts, shown newest first", async () => {
    const dir = '/work/ranked';
    const FACTS = [
      'Note that the upload service requires a session token in every request header.',
      'Note that the thumbnail worker only supports JPEG and PNG images from the camera.',
      'Note that the billing export must stay under ten megabytes per monthly archive.',
    ];
    const fact = (n: number) => ({
      id: `aaaaaaaa-0000-4000-8000-00000000000${n}`,
      cwd: dir,
      start: `2026-05-0${n}T09:00:00.000Z`,
      turns: [{ user: 'What does the upload need?' }, { assistant: FACTS[n - 1]! }],
    });
    const { store: ranked } = await storeWith([
      {
        id: 'bbbbbbbb-0000-4000-8000-000000000001',
        cwd: dir,
        start: '2026-04-01T09:00:00.000Z',
        turns: [
          { user: "Let's go with Postgres for the job queue instead of Redis, because we already run it." },
          { assistant: 'Understood.' },
        ],
      },
      fact(1),
      fact(2),
      fact(3),
    ]);
    try {
      await runLogbook({
        store: ranked,
        workspace: dir,
        selection: { kind: 'project', project: dir },
        runner: new LlmRunner({ provider: createExtractiveProvider() }),
      });
      const all = logbookForProject(ranked.db, dir);
      expect(all.events.map((e) => e.type)).toEqual(['fact', 'fact', 'fact', 'decision']);
      const header = all.text.split('\n')[0]!;
      const decisionLine = all.text.split('\n').find((l) => l.includes('Postgres'))!;
      const budget = countTokens(`${header}\n${decisionLine}\n`) + 2;
      const cut = logbookForProject(ranked.db, dir, { budget });
      expect(cut.events.map((e) => e.type)).toEqual(['decision']);
      expect(cut.events[0]?.source.role).toBe('user');
    } finally {
      ranked.close();
    }
  });

  describe('usefulness', () => {
    it('ranks a text cut short below the same kind of event said whole', () => {
      const source = { conversation_id: 'c', message_id: '1', session: 's', message: 1, agent: 'cursor', role: 'user' };
      const event = (content: string): TimelineEvent => ({ timestamp: '', type: 'decision', content, source });
      const whole = usefulness(event('Use Postgres for the job queue, because we already run it'));
      expect(usefulness(event('Use Postgres for the job queue, because we already run it and the backups are…'))).toBe(
        whole - 1,
      );
    });
  });
});
