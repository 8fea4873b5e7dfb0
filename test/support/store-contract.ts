// The one store contract: the same fixture sessions (the real Claude Code and Codex files) answered by
// any SessionReader — the local SQLite store or the team store on PostgreSQL — with the same sessions
// for the same searches, the same listing and the same read. Ranking differences are named in `Differences`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ingest } from '../../src/core/ingest/ingest.js';
import { ensureListing } from '../../src/core/retrieval/listing-table.js';
import type { SessionReader } from '../../src/core/retrieval/session-reader.js';
import { parseSelectors } from '../../src/core/retrieval/selectors.js';
import { StrataError } from '../../src/shared/errors.js';
import { openStore, type Store } from '../../src/store/db.js';
import { FIXTURES } from './paths.js';

export const CONTRACT_HOME = '/home/contract';

/** A local store holding the contract's fixture sessions (ingested as `strata ingest` does). */
export async function contractStore(dir: string): Promise<Store> {
  const store = openStore(join(dir, 'strata.db'));
  const paths = ['claude-code', 'codex'].map((a) => join(FIXTURES, a));
  await ingest({ store, paths, env: {}, cwd: dir, afterWrite: (db) => ensureListing(db, CONTRACT_HOME) });
  return store;
}

/** Where a backend's answers are allowed to differ, each difference asserted as it is. */
export interface Differences {
  /**
   * Several keywords: locally a session must hold every word (else it is marked near/partial after
   * those that do); on PostgreSQL any word matches and sessions rank by the share of words they hold.
   */
  keywordsMatchAnyWord: boolean;
  /** Search hits name the agent as `agent@machine` (the team store) instead of `agent`. */
  agentWithMachine: string | undefined;
  /**
   * Regular expressions, field selectors, time bounds, one session and semantic ranking: the local store
   * answers them; the team store refuses them (USAGE) rather than answer without them.
   */
  localOnlySearchRefused: boolean;
}

const ids = (r: { sessions: { id: string }[] }) => r.sessions.map((s) => s.id);

export function storeContract(label: string, open: () => Promise<SessionReader>, differences: Differences): void {
  describe(`store contract: ${label}`, () => {
    let reader: SessionReader;
    beforeAll(async () => {
      reader = await open();
    });
    afterAll(async () => reader?.close());

    it('a single keyword finds the same sessions', async () => {
      for (const [word, expected] of Object.entries(KEYWORD_SESSIONS)) {
        const found = await reader.search({ query: word, limit: 100 });
        expect(new Set(ids(found)), word).toEqual(new Set(expected));
      }
    });

    it('keyword hits carry snippets, message numbers and fields', async () => {
      const found = await reader.search({ query: 'waybar', limit: 5, maxPerSession: 2 });
      const top = found.sessions[0]!;
      expect(top.id.startsWith(SCREEN_SAVER)).toBe(true);
      expect(top.agent).toBe(
        differences.agentWithMachine ? `claude-code@${differences.agentWithMachine}` : 'claude-code',
      );
      expect(top.hits.length).toBe(2);
      for (const h of top.hits) {
        expect(h.snippet.toLowerCase()).toContain('waybar');
        expect(h.message).toBeGreaterThan(0);
      }
    });

    it('a question ranks the session that answers it first', async () => {
      for (const [question, expected] of Object.entries(QUESTION_TOP)) {
        const found = await reader.search({ query: question });
        expect(found.sessions[0]?.id, question).toBe(expected);
      }
    });

    it('several keywords: the sessions holding them all first', async () => {
      const found = await reader.search({ query: 'orders cart', limit: 10 });
      expect(new Set(ids(found).slice(0, 2))).toEqual(new Set(CODEX_ORDERS));
      const partial = found.sessions.slice(2);
      if (differences.keywordsMatchAnyWord) expect(partial.every((s) => s.match === undefined)).toBe(true);
      else expect(partial.every((s) => s.match === 'partial' || s.match === 'near')).toBe(true);
    });

    it('filters by agent and project; nothing matched is an empty answer', async () => {
      const codex = await reader.search({ query: 'test', agent: ['codex'], limit: 100 });
      expect(codex.sessions.length).toBeGreaterThan(0);
      expect(codex.sessions.every((s) => s.agent.startsWith('codex'))).toBe(true);
      const claude = await reader.search({ query: 'test', project: 'Claude', limit: 100 });
      expect(new Set(ids(claude))).toEqual(new Set(TEST_IN_CLAUDE));
      expect((await reader.search({ query: 'zzqqxxnothing' })).sessions).toEqual([]);
    });

    it('local-only search options are answered locally, refused on the team store', async () => {
      const asks = [
        { regex: true },
        { session: SCREEN_SAVER },
        { in: parseSelectors(['assistant']) },
        { after: '2020-01-01T00:00:00.000Z' },
      ];
      for (const ask of asks) {
        const found = reader.search({ query: 'waybar', ...ask });
        if (differences.localOnlySearchRefused) await expect(found).rejects.toMatchObject({ code: 'USAGE' });
        else
          expect(
            ids(await found).some((id) => id.startsWith(SCREEN_SAVER)),
            JSON.stringify(ask),
          ).toBe(true);
      }
      // Their "off" values are no request: answered on both stores.
      const plain = await reader.search({ query: 'waybar', regex: false, in: [], mode: 'lexical' });
      expect(ids(plain)[0]?.startsWith(SCREEN_SAVER)).toBe(true);
    });

    it('lists the same sessions newest first with the same statistics', async () => {
      const entries = await reader.list();
      // Sessions started at the same time list in ingest order locally, by id on the server: compared as sets.
      expect(entries.map((e) => e.id).sort()).toEqual([...LISTING_ORDER].sort());
      expect(entries.map((e) => e.id).slice(0, 13)).toEqual(LISTING_ORDER.slice(0, 13));
      const starts = entries.map((e) => e.startedAt ?? '');
      expect(starts).toEqual([...starts].sort().reverse());
      const busiest = entries.find((e) => e.id.startsWith(SCREEN_SAVER))!;
      expect([busiest.messages, busiest.userMessages, busiest.linesAdded, busiest.linesRemoved]).toEqual(
        SCREEN_SAVER_STATS,
      );
      expect(busiest.title).toBe('my screen saver comes up way to fast');
      const all = await reader.list({ all: true });
      expect(all.length).toBe(ALL_SESSIONS);
      const codex = await reader.list({ agent: ['codex'], limit: 2 });
      expect(codex.map((e) => e.agent)).toEqual(['codex', 'codex']);
    });

    it('reads a session truncated uniformly, and a range of it', async () => {
      const read = await reader.read(SCREEN_SAVER.slice(0, 6), { targetWords: 300 });
      expect(read.session.externalId.startsWith(SCREEN_SAVER)).toBe(true);
      expect([read.from, read.to, read.session.messages, read.wordLimit]).toEqual(TRUNCATED_READ);
      expect(read.messages.some((m) => m.blocks.some((b) => b.truncated))).toBe(true);
      expect(read.messages[0]!.blocks[0]!.text).toBe('my screen saver comes up way');
      const range = await reader.read(SCREEN_SAVER, { range: '2-6', full: true });
      expect([range.from, range.to, range.wordLimit]).toEqual([2, 6, null]);
      expect(range.messages.map((m) => m.n)).toEqual([2, 3, 4, 5, 6]);
    });

    it('an unknown id is NOT_FOUND and an ambiguous prefix AMBIGUOUS (exit 2)', async () => {
      await expect(reader.read('zzzz-no-such')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(reader.read('agent-a')).rejects.toBeInstanceOf(StrataError);
      await expect(reader.read('agent-a')).rejects.toMatchObject({ code: 'AMBIGUOUS' });
    });
  });
}

const SCREEN_SAVER = '1fb5e404';
const CODEX_ORDERS = ['019c45b2-846a-7fa1-9ed7-42354e9982fd', '019c3e73-68a9-7491-a58a-a50dac4ac6d8'];
const SCREEN_SAVER_STATS = [548, 64, 953, 256];
const ALL_SESSIONS = 36;
/** from, to, messages, the uniform word limit of a 300-word read. */
const TRUNCATED_READ = [1, 463, 463, 6];

const QUESTION_TOP: Record<string, string> = {
  'why does my screen saver come up so fast?': '1fb5e404-604d-4a2b-baf1-3beb42a67371',
  'how did I fix the waybar config?': '1fb5e404-604d-4a2b-baf1-3beb42a67371',
};

const KEYWORD_SESSIONS: Record<string, string[]> = {
  bug: [
    '9a9eadc8-c1f1-493e-a0f1-884aa996b05b',
    '0fae0449-64d3-4788-8622-d3a47d82c14b',
    'f02a98c9-b490-4e35-9f43-293fd40c5686',
    '5fbb940a-c7f3-404d-bf66-a028fcc250ec',
    '1fb5e404-604d-4a2b-baf1-3beb42a67371',
    '67a8478e-78dc-44ab-82ea-f65c8ead85f6',
    'agent-aprompt_suggestion-7c77e3',
    '8c45ffa0-016d-4a1f-905e-ec59522438f6',
  ],
  test: [
    'c7d3d95c-57f0-4359-8f4b-926a9bef5a3f',
    'c64cc478-3430-40fe-8e9c-4ee9986e9754',
    '9a9eadc8-c1f1-493e-a0f1-884aa996b05b',
    'cb88ae13-898d-4076-aeb5-bc37191c5d2e',
    '38b123ff-933b-4dfe-bd12-d42671fcb25f',
    '5fbb940a-c7f3-404d-bf66-a028fcc250ec',
    '0fae0449-64d3-4788-8622-d3a47d82c14b',
    'f02a98c9-b490-4e35-9f43-293fd40c5686',
    '1a0dd4c9-4e06-40c6-97f9-066c07c8793b',
    '0418f71e-beb0-474c-a03d-1719a72e64cc',
    '019a802a-aab1-7c31-9831-d2510c7a74a2',
    '1fb5e404-604d-4a2b-baf1-3beb42a67371',
    '019c45b2-846a-7fa1-9ed7-42354e9982fd',
    '019c3e73-68a9-7491-a58a-a50dac4ac6d8',
    '0c4091f0-060f-4af0-8df1-c18d15dd7487',
    'agent-ad82874',
    '982581eb-41b9-46da-86c1-ac34168117a8',
    '8c45ffa0-016d-4a1f-905e-ec59522438f6',
    'agent-aprompt_suggestion-7c77e3',
    'agent-acompact-da0465a580706b8c',
    'agent-acompact-645cb129a2c883cb',
  ],
};

const TEST_IN_CLAUDE = ['5fbb940a-c7f3-404d-bf66-a028fcc250ec', '1fb5e404-604d-4a2b-baf1-3beb42a67371'];

/** Newest first; subagents rolled into their parents. */
const LISTING_ORDER = [
  'agent-a65810eca9e781f4b',
  'agent-aa1c7e864af7eb9ee',
  'agent-a1409bd91f513fcba',
  'agent-a6a92bc7d0a52e8c2',
  'agent-a2327c8c3086b56ee',
  'agent-a79bed8f6ae00c34a',
  'agent-a8e43dcdea414a060',
  'agent-af8555925ab48a3d6',
  'agent-a073139c8fe58ba03',
  'agent-a520480fc0182e0d7',
  '1fb5e404-604d-4a2b-baf1-3beb42a67371',
  '5fbb940a-c7f3-404d-bf66-a028fcc250ec',
  'agent-acompact-da0465a580706b8c',
  'agent-acompact-645cb129a2c883cb',
  'agent-a562625e12c50ac40',
  '8c45ffa0-016d-4a1f-905e-ec59522438f6',
  '019c45b2-846a-7fa1-9ed7-42354e9982fd',
  '019c3e73-68a9-7491-a58a-a50dac4ac6d8',
  'agent-ad82874',
  '0c4091f0-060f-4af0-8df1-c18d15dd7487',
  'f02a98c9-b490-4e35-9f43-293fd40c5686',
  'cb88ae13-898d-4076-aeb5-bc37191c5d2e',
  'c7d3d95c-57f0-4359-8f4b-926a9bef5a3f',
  'c64cc478-3430-40fe-8e9c-4ee9986e9754',
  '019ac88c-3f80-7990-a29a-d20399dcab74',
  '019a802a-aab1-7c31-9831-d2510c7a74a2',
  '982581eb-41b9-46da-86c1-ac34168117a8',
  '9a9eadc8-c1f1-493e-a0f1-884aa996b05b',
  '0fae0449-64d3-4788-8622-d3a47d82c14b',
  '67a8478e-78dc-44ab-82ea-f65c8ead85f6',
  '1a0dd4c9-4e06-40c6-97f9-066c07c8793b',
  '0418f71e-beb0-474c-a03d-1719a72e64cc',
  'b98b051d-8a43-4a16-86f6-0175a69ebdc6',
  '38b123ff-933b-4dfe-bd12-d42671fcb25f',
];
