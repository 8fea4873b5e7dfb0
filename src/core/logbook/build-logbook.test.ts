// The logbook loop on a real store: one call per chunk with the whole logbook so far and the spec's
// template, subagents with their parent, empty sessions skipped, events cited and corrected, failures
// retried, the incremental and cached paths, the parallel variant and the spend guard.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildLogbook, type BuildOptions } from './index.js';
import { createMemoryCache, LlmRunner, LOGBOOK_PROMPT_TEMPLATE, type LlmCache } from '../llm/index.js';
import { readSession } from '../retrieval/read-session.js';
import type { Store } from '../../store/db.js';
import {
  chunkOf,
  logbookOf,
  reingest,
  scriptedProvider,
  storeWith,
  type ScriptedProvider,
  type SessionSpec,
} from '../../../test/support/logbook-sessions.js';

const CWD = '/work/app';
const S1 = '11111111-aaaa-4aaa-8aaa-000000000001';
const S2 = '22222222-bbbb-4bbb-8bbb-000000000002';
const S3 = '33333333-cccc-4ccc-8ccc-000000000003';
const long = (i: number): string =>
  (
    `Step ${i}: we looked at the parser module and its error handling in detail, checking every branch of the ` +
    'tokenizer and the recovery path once more. '
  ).repeat(4);

const SESSIONS: SessionSpec[] = [
  {
    id: S1,
    cwd: CWD,
    start: '2026-01-01T09:00:00.000Z',
    turns: [
      { user: 'We need a cache for parsed files.' },
      { assistant: 'We decided to use SQLite instead of Redis because it ships with Node.' },
    ],
  },
  {
    id: S2,
    cwd: CWD,
    start: '2026-01-02T09:00:00.000Z',
    turns: [
      { user: 'Review the parser.' },
      ...Array.from({ length: 8 }, (_, i) => ({ assistant: long(i) })),
      { tool: 'Bash', input: { command: 'npm test' }, output: 'FAIL parser.test.ts\nexpected 2 got 3', failed: true },
    ],
    subagents: [
      {
        agentId: 'a1b2c3',
        turns: [
          { user: 'Explore the tokenizer' },
          { assistant: 'The tokenizer is defined in src/tokenizer.ts and handles unicode.' },
        ],
      },
      {
        agentId: 'w4rm5p',
        turns: [{ user: 'Warmup' }, { assistant: 'Ready. The repository holds src/app.ts and an invented README.' }],
      },
      { agentId: 'e3p7y0', turns: [{ user: 'Look at the build' }] },
    ],
  },
  { id: S3, cwd: CWD, start: '2026-01-03T09:00:00.000Z', turns: [{ noise: 'clear' }] },
];

const ID_RE = /^(?:user|assistant|tool) \[([^\]]+)\]: /gm;
const idsOf = (chunk: string): string[] => [...chunk.matchAll(ID_RE)].map((m) => m[1]!);

/** Answers one decision per chunk citing the chunk's first message, with a timestamp that is not the chunk's. */
function citingFirst(): ScriptedProvider {
  return scriptedProvider((request) => {
    const chunk = chunkOf(request);
    const conversation = /^Conversation: (.+)$/m.exec(chunk)![1]!;
    const first = idsOf(chunk)[0]!;
    return JSON.stringify({
      events: [
        {
          timestamp: '1999-01-01T00:00:00Z',
          type: 'decision',
          content: `Chunk of ${conversation.slice(0, 8)} starting at message ${first} settles a design question`,
          source: { conversation_id: conversation, message_id: first },
        },
      ],
    });
  });
}

let stores: Store[] = [];
afterEach(() => {
  for (const s of stores) s.close();
  stores = [];
});

async function setup(specs = SESSIONS) {
  const made = await storeWith(specs);
  stores.push(made.store);
  return made;
}

function options(
  store: Store,
  provider: ScriptedProvider,
  cache: LlmCache,
  extra: Partial<BuildOptions> = {},
): BuildOptions {
  return {
    db: store.db,
    workspace: CWD,
    selection: { kind: 'project', project: CWD },
    runner: new LlmRunner({ provider, cache, baseDelayMs: 1, maxDelayMs: 1 }),
    chunkTokens: 300,
    now: () => new Date('2026-02-01T00:00:00Z'),
    ...extra,
  };
}

describe('logbook loop', () => {
  it(
    'makes one call per chunk with the spec template and the whole logbook so far; subagents go with their parent; ' +
      'empty sessions are skipped',
    async () => {
      const { store } = await setup();
      const provider = citingFirst();
      const result = await buildLogbook(options(store, provider, createMemoryCache()));
      const chunks = provider.requests.map(chunkOf);
      const s2Chunks = chunks.filter((c) => c.startsWith(`Conversation: ${S2}`)).length;
      expect(s2Chunks).toBeGreaterThan(1);
      expect(provider.requests).toHaveLength(1 + s2Chunks);
      expect(result).toMatchObject({ conversations: 3, processed: 2, empty: 1, chunks: 1 + s2Chunks });
      expect(chunks.some((c) => c.includes(S3))).toBe(false);
      // The subagent's messages are in its parent's chunks, as aK.N.
      expect(chunks.join('\n')).toMatch(/assistant \[a1\.2\]: The tokenizer is defined in src\/tokenizer\.ts/);
      // A Warmup subagent and one that wrote nothing are not sent.
      expect(chunks.join('\n')).not.toMatch(/Warmup|invented README|Look at the build/);
      // The spec's template word for word around the two inserted texts.
      const [head, rest] = LOGBOOK_PROMPT_TEMPLATE.split('{logbook_text}');
      const tail = rest!.split('{chunk_text}')[1]!;
      for (const r of provider.requests) {
        expect(r.prompt.startsWith(head!)).toBe(true);
        expect(r.prompt.endsWith(tail)).toBe(true);
        expect(logbookOf(r)).toMatch(/^=== Logbook: \/work\/app ===\nGenerated: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
      }
      // Each call sees every event added before it.
      provider.requests.forEach((r, i) =>
        expect(
          logbookOf(r)
            .split('\n')
            .filter((l) => l.includes('| DECISION |')),
        ).toHaveLength(i),
      );
      // Events cite the message strata read opens, with that message's time (the reply's 1999 is corrected).
      for (const e of result.document.timeline) {
        const read = readSession(store.db, e.source.session, { range: String(e.source.message) });
        expect(new Date(read.messages[0]!.timestamp!).toISOString()).toBe(e.timestamp);
      }
      expect(result.document.timeline.map((e) => e.timestamp)).toEqual(
        [...result.document.timeline.map((e) => e.timestamp)].sort().reverse(),
      );
    },
  );

  it(
    'keeps valid events of a reply and drops unknown types, bare paths and the excess of a 500-event ' + 'reply',
    async () => {
      const { store } = await setup(SESSIONS.slice(0, 1));
      const provider = scriptedProvider(() =>
        JSON.stringify({
          events: [
            { timestamp: '2026-01-01T09:02:00.000Z', type: 'opinion', content: 'Tabs are nicer than spaces here' },
            { timestamp: '2026-01-01T09:02:00.000Z', type: 'fact', content: 'src/cache/sqlite.ts' },
            {
              timestamp: '2026-01-01T09:02:00.000Z',
              type: 'DECISION',
              content: 'Use SQLite for the parse cache',
              rationale: 'ships with Node',
              alternatives: ['Redis'],
              code: 'new Database(path)\nsecond line',
              source: { message_id: 2 },
            },
            ...Array.from({ length: 500 }, (_, i) => ({
              timestamp: 'not a time',
              type: 'fact',
              content: `Generated fact number ${i} about the cache layer`,
              source: { message_id: 2 },
            })),
          ],
        }),
      );
      const result = await buildLogbook(options(store, provider, createMemoryCache(), { maxEvents: 30 }));
      const timeline = result.document.timeline;
      expect(timeline).toHaveLength(30);
      const decision = timeline.find((e) => e.type === 'decision')!;
      expect(decision).toMatchObject({
        content: 'Use SQLite for the parse cache',
        rationale: 'ships with Node',
        alternatives: ['Redis'],
        code: 'new Database(path)',
        source: { session: S1, message: 2, message_id: '2', agent: 'claude-code' },
      });
      expect(result.dropped).toMatchObject({ 'unknown type': 1, 'only an id or a path': 1 });
      expect(result.dropped['over the per-chunk limit']).toBeGreaterThan(400);
      expect(timeline.every((e) => e.timestamp === '2026-01-01T09:02:00.000Z')).toBe(true);
    },
  );

  it('logs a failed conversation, goes on, and retries only it on the next run', async () => {
    const { store } = await setup(
      SESSIONS.slice(0, 1).concat([{ ...SESSIONS[0]!, id: S3, start: '2026-01-03T09:00:00.000Z' }]),
    );
    const warnings: string[] = [];
    let broken = true;
    const provider = scriptedProvider((request) =>
      broken && chunkOf(request).includes(S1) ? 'I cannot answer in JSON, sorry.' : '{"events": []}',
    );
    const first = await buildLogbook(
      options(store, provider, createMemoryCache(), { logger: { info() {}, warn: (l) => warnings.push(l) } }),
    );
    expect(first.failed.map((f) => f.conversation)).toEqual([S1]);
    expect(warnings[0]).toMatch(new RegExp(`^failed to process conversation ${S1}: `));
    expect(first.document.failed).toEqual([S1]);
    expect(provider.requests).toHaveLength(3); // S1, its one repair, S3
    broken = false;
    const second = await buildLogbook(options(store, provider, createMemoryCache(), { previous: first.document }));
    expect(provider.requests.slice(3).map((r) => chunkOf(r).split('\n')[0])).toEqual([`Conversation: ${S1}`]);
    expect(second.document.failed).toEqual([]);
  });

  it(
    'makes no call when nothing changed, reprocesses only the new part of a grown session, and a cached rebuild ' +
      'makes no call',
    async () => {
      const { store, root, dir } = await setup();
      const cache = createMemoryCache();
      const provider = citingFirst();
      const first = await buildLogbook(options(store, provider, cache));
      const calls = provider.requests.length;
      const again = await buildLogbook(options(store, provider, cache, { previous: first.document }));
      expect(again.changed).toBe(false);
      expect(again.document).toBe(first.document);
      expect(provider.requests).toHaveLength(calls);
      const rebuild = await buildLogbook(options(store, provider, cache, { full: true, previous: first.document }));
      expect(provider.requests).toHaveLength(calls);
      expect(rebuild.document.timeline).toEqual(first.document.timeline);
      // S1 grows after the logbook's source_range.to: only S1's changed chunk is sent.
      const file = join(dir, `${S1}.jsonl`);
      const last = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').pop()!);
      appendFileSync(
        file,
        JSON.stringify({
          ...last,
          type: 'user',
          uuid: 'grown-1',
          parentUuid: last.uuid,
          timestamp: '2026-01-05T00:00:00.000Z',
          message: { role: 'user', content: 'Note that the cache must stay under 50 MB.' },
        }) + '\n',
      );
      await reingest(store, root, dir);
      const grown = await buildLogbook(options(store, provider, cache, { previous: first.document }));
      expect(provider.requests.slice(calls).map((r) => chunkOf(r).split('\n')[0])).toEqual([`Conversation: ${S1}`]);
      expect(chunkOf(provider.requests[calls]!)).toContain('cache must stay under 50 MB');
      expect(grown.processed).toBe(1);
    },
  );

  it('replaces the events of a conversation read again whole, and keeps the others', async () => {
    const { store, root, dir } = await setup();
    // One event per chunk naming the chunk's last message: it changes as the conversation grows.
    const provider = scriptedProvider((request) => {
      const chunk = chunkOf(request);
      const conversation = /^Conversation: (.+)$/m.exec(chunk)![1]!;
      const ids = idsOf(chunk);
      const content = `Conversation ${conversation.slice(0, 8)} ends at message ${ids[ids.length - 1]}`;
      return JSON.stringify({
        events: [{ type: 'fact', content, source: { conversation_id: conversation, message_id: ids[0] } }],
      });
    });
    const whole = { chunkTokens: 100_000 };
    const first = await buildLogbook(options(store, provider, createMemoryCache(), whole));
    const file = join(dir, `${S1}.jsonl`);
    const last = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').pop()!);
    const grownLine = {
      ...last,
      type: 'user',
      uuid: 'grown-2',
      parentUuid: last.uuid,
      timestamp: '2026-01-05T00:00:00.000Z',
    };
    appendFileSync(
      file,
      `${JSON.stringify({ ...grownLine, message: { role: 'user', content: 'One more thing.' } })}\n`,
    );
    await reingest(store, root, dir);
    const grown = await buildLogbook(
      options(store, provider, createMemoryCache(), { ...whole, previous: first.document }),
    );
    const contents = grown.document.timeline.map((e) => e.content).sort();
    expect(contents.filter((c) => c.startsWith(`Conversation ${S1.slice(0, 8)}`))).toEqual([
      `Conversation ${S1.slice(0, 8)} ends at message 3`,
    ]);
    expect(contents.filter((c) => c.startsWith(`Conversation ${S2.slice(0, 8)}`))).toHaveLength(1);
  });

  it('--parallel: conversations of one batch see the logbook as it was at the start of the batch', async () => {
    const { store } = await setup([
      SESSIONS[0]!,
      { ...SESSIONS[0]!, id: S2, start: '2026-01-02T09:00:00.000Z' },
      { ...SESSIONS[0]!, id: S3, start: '2026-01-03T09:00:00.000Z' },
    ]);
    const provider = citingFirst();
    const result = await buildLogbook(options(store, provider, createMemoryCache(), { parallel: 2 }));
    const seen = (id: string) =>
      logbookOf(provider.requests.find((r) => chunkOf(r).includes(id))!)
        .split('\n')
        .filter((l) => l.includes('| DECISION |')).length;
    expect([seen(S1), seen(S2), seen(S3)]).toEqual([0, 0, 2]);
    expect(result.document.timeline).toHaveLength(3);
  });

  it('stops at the spend guard and leaves the rest for the next run', async () => {
    const { store } = await setup();
    const provider = citingFirst();
    const result = await buildLogbook({
      ...options(store, provider, createMemoryCache()),
      runner: new LlmRunner({ provider, maxCalls: 1 }),
    });
    expect(provider.requests).toHaveLength(1);
    expect(result.budgetStop).toMatch(/maxCalls|max/i);
    expect(result.document.failed).toEqual([S2]);
  });
});
