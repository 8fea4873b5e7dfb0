// `strata logbook` against a real OpenAI-compatible HTTP server on 127.0.0.1: exactly one request per
// chunk (conversations + extra chunks), a 429 with Retry-After retried, and a killed run that leaves the
// previous logbook (file and store) intact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chunkConversation, listConversations, loadConversation } from '../src/core/logbook/index.js';
import { openStore } from '../src/store/db.js';
import { runCli, runCliAsync, tempDir } from './support/cli.js';
import { writeSessions, type SessionSpec } from './support/logbook-sessions.js';
import { startScriptedServer, type ScriptedServer } from './support/llm-scripted-server.js';

const CWD = '/work/app';
const long = (i: number): string =>
  (
    `Part ${i}: we compared the two storage layouts and measured the write path under load with several ` +
    'writers at once. '
  ).repeat(5);
const SESSIONS: SessionSpec[] = [
  {
    id: '44444444-aaaa-4aaa-8aaa-000000000001',
    cwd: CWD,
    start: '2026-01-01T09:00:00.000Z',
    turns: [
      { user: 'Pick a store.' },
      { assistant: 'We decided to use SQLite instead of JSON files because writes must be atomic.' },
    ],
  },
  {
    id: '55555555-bbbb-4bbb-8bbb-000000000002',
    cwd: CWD,
    start: '2026-01-02T09:00:00.000Z',
    turns: [{ user: 'Measure the write path.' }, ...Array.from({ length: 10 }, (_, i) => ({ assistant: long(i) }))],
  },
  {
    id: '66666666-cccc-4ccc-8ccc-000000000003',
    cwd: CWD,
    start: '2026-01-03T09:00:00.000Z',
    turns: [
      { user: 'Note that the export must stay under 10 MB.' },
      { assistant: 'Understood, the export is capped.' },
    ],
  },
];

let server: ScriptedServer;
let home: string;
let env: Record<string, string>;

function runAsync(args: string[], onStart?: (child: ChildProcess) => void) {
  return runCliAsync(args, env, onStart);
}

function expectedChunks(chunkTokens: number): { conversations: number; chunks: number } {
  const store = openStore(join(home, 'data', 'strata.db'));
  try {
    const conversations = listConversations(store.db, { kind: 'project', project: CWD })
      .map((h) => loadConversation(store.db, h))
      .filter((c) => c.messages.length > 0);
    return {
      conversations: conversations.length,
      chunks: conversations.reduce((n, c) => n + chunkConversation(c, chunkTokens).length, 0),
    };
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  server = await startScriptedServer();
  home = tempDir('strata-logbook-http-');
  env = {
    STRATA_HOME: join(home, 'data'),
    HOME: home,
    OPENAI_BASE_URL: `${server.url}/v1`,
    STRATA_LLM_PROVIDER: 'openai',
    STRATA_LLM_MODEL: 'gpt-4o-mini',
  };
  const dir = writeSessions(home, SESSIONS);
  expect((await runCli(['ingest', dir], env)).code).toBe(0);
});

afterAll(async () => {
  await server.close();
});

describe('strata logbook with an OpenAI-compatible server', () => {
  it(
    'sends one request per chunk: conversations + extra chunks, exactly; a 429 with Retry-After is ' + 'retried',
    async () => {
      const { conversations, chunks } = expectedChunks(400);
      expect(chunks).toBeGreaterThan(conversations);
      server.requests.length = 0;
      server.script([{ kind: 'rate-limit', retryAfterSec: 1 }], { kind: 'ok', text: '{"events": []}' });
      const out = join(home, 'logbook.json');
      const run = await runAsync(['logbook', '--project', CWD, '--chunk-tokens', '400', '--out', out, '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests).toHaveLength(chunks + 1);
      expect(run.stderr).toMatch(/logbook: retrying .* in 1 s/);
      const report = JSON.parse(run.stdout);
      expect(report).toMatchObject({ conversations: 3, chunks, failed: [], llm: { calls: chunks + 1, retries: 1 } });
      for (const r of server.requests) {
        const prompt = (r.body.messages as Array<{ content: string }>).at(-1)!.content;
        expect(prompt.split('CURRENT CONVERSATION CHUNK:')).toHaveLength(2);
      }
      // Unchanged input: the stored logbook is current, no request at all; a full rebuild is answered by the cache.
      const again = await runAsync(['logbook', '--project', CWD, '--chunk-tokens', '400', '--out', out, '--json']);
      expect(JSON.parse(again.stdout)).toMatchObject({ changed: false, calls: 0 });
      const rebuilt = await runAsync(['logbook', '--project', CWD, '--chunk-tokens', '400', '--full', '--json']);
      expect(JSON.parse(rebuilt.stdout)).toMatchObject({ changed: true, calls: 0, llm: { cacheHits: chunks } });
      expect(server.requests).toHaveLength(chunks + 1);
    },
  );

  it(
    'replies that are not JSON: each conversation is logged as failed, the run warns, still writes the logbook ' +
      'and exits 1 since every conversation failed',
    async () => {
      const out = join(home, 'failed.json');
      server.requests.length = 0;
      server.script([], { kind: 'ok', text: 'Sorry, I cannot help with that.' });
      // Another model, so the replies cached by the first test do not answer these calls.
      const run = await runAsync([
        'logbook',
        '--project',
        CWD,
        '--chunk-tokens',
        '400',
        '--model',
        'gpt-4.1-mini',
        '--out',
        out,
        '--full',
      ]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain('Warning: failed to process 3 conversations (retried on the next run)');
      expect(run.stderr).toContain('logbook: every conversation failed (3)');
      expect(run.stderr.match(/strata: warning: failed to process conversation \S+: /g)).toHaveLength(3);
      expect(server.requests).toHaveLength(6); // each conversation's first chunk and its one repair
      expect(JSON.parse(readFileSync(out, 'utf8')).failed).toHaveLength(3);
    },
  );

  it(
    'a killed run leaves the previous logbook file and stored logbook intact, and the next run takes its lock ' +
      'over',
    async () => {
      const out = join(home, 'kept.json');
      const first = await runCli(['logbook', '--project', CWD, '--provider', 'extractive', '--out', out], env);
      expect(first.code, first.stderr).toBe(0);
      const before = readFileSync(out);
      const shownBefore = (await runCli(['logbook', 'show', '--project', CWD, '--json'], env)).stdout;
      server.requests.length = 0;
      server.script([], { kind: 'slow', delayMs: 30_000, text: '{"events": []}' });
      const killed = await runAsync(['logbook', '--project', CWD, '--out', out, '--full'], (child) => {
        const timer = setInterval(() => {
          if (server.requests.length > 0) {
            clearInterval(timer);
            child.kill('SIGKILL');
          }
        }, 20);
      });
      expect(killed.signal).toBe('SIGKILL');
      expect(readFileSync(out).equals(before)).toBe(true);
      expect((await runCli(['logbook', 'show', '--project', CWD, '--json'], env)).stdout).toBe(shownBefore);
      server.script([], { kind: 'ok', text: '{"events": []}' });
      const next = await runCli(['logbook', '--project', CWD, '--provider', 'extractive', '--out', out, '--full'], env);
      expect(next.code, next.stderr).toBe(0);
    },
  );

  it('takes --base-url, drops an event citing no message of its chunk, and remembers its provider', async () => {
    const plain = { STRATA_HOME: env.STRATA_HOME!, HOME: home };
    const reply = {
      events: [
        { type: 'decision', content: 'Use SQLite instead of JSON files for atomic writes', source: { message_id: 2 } },
        { type: 'fact', content: 'A fact the model cited to a message it never saw', source: { message_id: 50 } },
      ],
    };
    server.script([], { kind: 'ok', text: JSON.stringify(reply) });
    const model = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', `${server.url}/v1`];
    const built = await runCliAsync(['logbook', '--project', CWD, ...model, '--full', '--json'], plain);
    expect(built.code, built.stderr).toBe(0);
    expect(JSON.parse(built.stdout).dropped).toMatchObject({ 'cited message not in the chunk': 3 });
    const doc = (args: string[]) => runCliAsync(['logbook', '--project', CWD, '--format', 'json', ...args], plain);
    const kept = await doc(['--base-url', `${server.url}/v1`]);
    expect(kept.stderr).toContain('logbook: using openai (gpt-4o), the provider this logbook was built with');
    expect(JSON.parse(kept.stdout).generator).toMatchObject({ provider: 'openai', model: 'gpt-4o' });
    expect(JSON.parse(kept.stdout).timeline.map((e: { content: string }) => e.content)).toEqual([
      'Use SQLite instead of JSON files for atomic writes',
    ]);
    const replaced = await doc(['--provider', 'extractive']);
    expect(replaced.stderr).toContain(
      'logbook: replacing the logbook built by openai (gpt-4o) (--provider extractive)',
    );
    expect(JSON.parse(replaced.stdout).generator).toMatchObject({ provider: 'extractive' });
  });
});
