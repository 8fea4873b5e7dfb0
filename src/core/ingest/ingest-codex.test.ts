// Codex and Gemini fixtures through the real ingest engine and store: whole-fixture ingest (including the
// generation-1 `.json` whose last line has no newline), usage totals, an appended chunk, re-runs.
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingest } from './ingest.js';
import { openStore, type Store } from '../../store/db.js';
import { geminiAdapter } from '../../sources/gemini/index.js';
import { codexAdapter } from '../../sources/codex/index.js';

const REAL = resolve(process.cwd(), '../shared/fixtures/real');
let dir: string;
let store: Store;
const all = <T>(sql: string, ...args: unknown[]) => store.db.prepare(sql).all(...args) as T[];
const run = (paths: string[]) =>
  ingest({ store, paths, adapters: [codexAdapter, geminiAdapter], env: {}, cwd: dir, redact: false });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-codex-ingest-'));
  store = openStore(join(dir, 'strata.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('codex + gemini through the ingest engine', () => {
  it('ingests every fixture: 8 Codex and 3 Gemini sessions; 3 prompt logs/checkpoints are not sessions', async () => {
    const report = await run([join(REAL, 'codex'), join(REAL, 'gemini')]);
    expect(report.filesFailed).toBe(0);
    expect(report.notSession.map((n) => n.reason).sort()).toEqual([
      "Gemini checkpoint: a snapshot of a session's content, duplicated in chats/",
      'Gemini prompt log (logs.json): prompts only, no replies; not a session',
      'Gemini prompt log (logs.json): prompts only, no replies; not a session',
    ]);
    const sessions = all<{
      agent: string;
      external_id: string;
      message_count: number;
      prompt_count: number;
      output_tokens: number;
      project: string | null;
    }>(
      `SELECT agent, external_id, message_count, prompt_count, output_tokens, project
       FROM sessions ORDER BY agent, external_id`,
    );
    expect(sessions.filter((s) => s.agent === 'codex')).toHaveLength(8);
    expect(sessions.filter((s) => s.agent === 'gemini')).toHaveLength(3);
    const byId = Object.fromEntries(sessions.map((s) => [s.external_id, s]));
    // generation 1 (.json, no trailing newline) arrives whole
    expect(byId['1a0dd4c9-4e06-40c6-97f9-066c07c8793b']).toMatchObject({ message_count: 9, prompt_count: 2 });
    // token totals: sum of output_tokens over the distinct token_count events (computed from the raw file)
    const moon = join(
      REAL,
      'codex/moonmind/sessions/2025/11/13/rollout-2025-11-13T18-21-11-019a802a-aab1-7c31-9831-d2510c7a74a2.jsonl',
    );
    const distinct = new Map<number, number>();
    for (const l of readFileSync(moon, 'utf8').split('\n').filter(Boolean)) {
      const r = JSON.parse(l);
      const info = r.type === 'event_msg' && r.payload?.type === 'token_count' ? r.payload.info : null;
      if (info?.last_token_usage)
        distinct.set(info.total_token_usage.total_tokens, info.last_token_usage.output_tokens);
    }
    expect(byId['019a802a-aab1-7c31-9831-d2510c7a74a2']).toMatchObject({
      message_count: 131,
      prompt_count: 1,
      project: '/mnt/d/ai/MoonMind',
      output_tokens: [...distinct.values()].reduce((a, b) => a + b, 0),
    });
    const again = await run([join(REAL, 'codex'), join(REAL, 'gemini')]);
    expect(again.messagesAdded).toBe(0);
  });

  it('merges an appended chunk into the session named by the file, keeping project and meta', async () => {
    const src = join(
      REAL,
      'codex/blubber-dotfiles/sessions/2026/02/08',
      'rollout-2026-02-08T19-11-16-019c3e73-68a9-7491-a58a-a50dac4ac6d8.jsonl',
    );
    const copy = join(dir, 'sessions', 'rollout-2026-02-08T19-11-16-019c3e73-68a9-7491-a58a-a50dac4ac6d8.jsonl');
    mkdirSync(join(dir, 'sessions'));
    copyFileSync(src, copy);
    await run([copy]);
    const ts = '2026-02-08T19:00:00.000Z';
    appendFileSync(
      copy,
      [
        JSON.stringify({
          timestamp: ts,
          type: 'response_item',
          payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one more thing' }] },
        }),
        JSON.stringify({
          timestamp: ts,
          type: 'response_item',
          payload: {
            type: 'function_call',
            name: 'exec_command',
            arguments: '{"cmd":"mix test"}',
            call_id: 'call_appended',
          },
        }),
        '',
      ].join('\n'),
    );
    await run([copy]);
    appendFileSync(
      copy,
      JSON.stringify({
        timestamp: ts,
        type: 'response_item',
        payload: { type: 'function_call_output', call_id: 'call_appended', output: 'Process exited with code 1' },
      }) + '\n',
    );
    await run([copy]);
    const [s] = all<{ prompt_count: number; message_count: number; project: string; meta: string }>(
      'SELECT prompt_count, message_count, project, meta FROM sessions WHERE external_id = ' +
        "'019c3e73-68a9-7491-a58a-a50dac4ac6d8'",
    );
    expect(s).toMatchObject({ prompt_count: 2, message_count: 46, project: '/Users/tiemo/src/rational/backoffice' });
    expect(JSON.parse(s!.meta)).toMatchObject({ generation: 3, cliVersion: '0.0.0' });
    const joined = all<{ kind: string; tool_name: string; is_error: number }>(
      "SELECT kind, tool_name, is_error FROM blocks WHERE tool_call_id = 'call_appended' ORDER BY kind",
    );
    // The output arrived in a later run than its call: it is named from the stored call.
    expect(joined).toEqual([
      { kind: 'tool_call', tool_name: 'exec_command', is_error: 0 },
      { kind: 'tool_result', tool_name: 'exec_command', is_error: 1 },
    ]);
  });
});

describe('a fork or subagent rollout with a replayed parent prefix', () => {
  const PARENT = '019b0000-0000-7000-8000-000000000001';
  const CHILD = '019b0000-0000-7000-8000-000000000002';
  const env = (timestamp: string, type: string, payload: object) => JSON.stringify({ timestamp, type, payload });
  const say = (ts: string, role: 'user' | 'assistant', text: string) =>
    env(ts, 'response_item', {
      type: 'message',
      role,
      content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
    });
  const parent = [
    env('2026-01-01T09:00:00.000Z', 'session_meta', {
      id: PARENT,
      timestamp: '2026-01-01T09:00:00.000Z',
      cwd: '/work/app',
    }),
    say('2026-01-01T09:00:01.000Z', 'user', 'parent prompt'),
    say('2026-01-01T09:00:02.000Z', 'assistant', 'parent answer'),
  ];
  // Newer builds re-stamp the copy at the fork instant; the subagent's own task follows within a second.
  const child = [
    env('2026-01-02T10:00:00.000Z', 'session_meta', {
      id: CHILD,
      timestamp: '2026-01-02T10:00:00.000Z',
      cwd: '/work/app',
      source: { subagent: { thread_spawn: { parent_thread_id: PARENT, depth: 1 } } },
    }),
    env('2026-01-02T10:00:00.003Z', 'session_meta', {
      id: PARENT,
      timestamp: '2026-01-01T09:00:00.000Z',
      cwd: '/work/app',
    }),
    say('2026-01-02T10:00:00.004Z', 'user', 'parent prompt'),
    say('2026-01-02T10:00:00.005Z', 'assistant', 'parent answer'),
    say('2026-01-02T10:00:00.300Z', 'user', 'subagent task: review the diff'),
    say('2026-01-02T10:00:05.000Z', 'assistant', 'reviewed'),
  ];
  const write = (name: string, lines: string[]) => {
    mkdirSync(join(dir, 'sessions'), { recursive: true });
    const path = join(dir, 'sessions', name);
    writeFileSync(path, lines.join('\n') + '\n');
    return path;
  };
  const texts = (key: string) =>
    all<{ text: string }>(
      'SELECT b.text FROM sessions s JOIN messages m ON m.session_id = s.id JOIN blocks b ON b.message_id = m.id ' +
        'WHERE s.external_id = ? ORDER BY m.seq',
      key,
    ).map((r) => r.text);

  it('keeps the subagent task and the copied prefix when the parent rollout is not stored', async () => {
    await run([write(`rollout-2026-01-02T10-00-00-${CHILD}.jsonl`, child)]);
    expect(texts(CHILD)).toEqual(['parent prompt', 'parent answer', 'subagent task: review the diff', 'reviewed']);
  });

  it('drops only the proven copy when the parent is stored, keeping the subagent task', async () => {
    await run([write(`rollout-2026-01-01T09-00-00-${PARENT}.jsonl`, parent)]);
    const report = await run([write(`rollout-2026-01-02T10-00-00-${CHILD}.jsonl`, child)]);
    expect(texts(CHILD)).toEqual(['subagent task: review the diff', 'reviewed']);
    expect(report.skippedRecords.fork_replay).toBe(2);
  });
});
