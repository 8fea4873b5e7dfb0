// Codex history shapes: fork and subagent replay, generations 1 and 2, the history.jsonl prompt log,
// detection and discovery under $CODEX_HOME.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assistant, env, ID, lines, meta, PATH, parse, tokens, user } from '../../../test/support/codex-records.js';
import { codexAdapter } from './index.js';
import { HISTORY_REASON } from './parser.js';

const tmp = mkdtempSync(join(tmpdir(), 'strata-codex-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('codex parser: forks and subagents', () => {
  const PARENT = '019b0000-0000-7000-8000-000000000001';
  const forkTs = '2026-01-02T10:00:00.000Z';
  const own = (out: ReturnType<typeof parse>) => out.messages.filter((m) => m.replayOf === undefined);
  const copied = (out: ReturnType<typeof parse>) => out.messages.filter((m) => m.replayOf === PARENT);

  it('links a fork to its parent and marks the replayed parent prefix (copied burst at the fork instant)', () => {
    const out = parse([
      meta({ forked_from_id: PARENT }, forkTs),
      env('2026-01-02T10:00:00.003Z', 'session_meta', {
        id: PARENT,
        timestamp: '2026-01-01T09:00:00Z',
        cwd: '/work/app',
      }),
      user('2026-01-02T10:00:00.004Z', 'parent prompt'),
      assistant('2026-01-02T10:00:00.005Z', 'parent answer'),
      tokens('2026-01-02T10:00:00.006Z', 500, 400, 0, 100),
      user('2026-01-02T10:00:07.000Z', 'fork prompt'),
      assistant('2026-01-02T10:00:09.000Z', 'fork answer'),
    ]);
    expect(out.sessions[0]).toMatchObject({ key: ID, parentKey: PARENT, relation: 'fork' });
    // Kept and marked: the ingest drops them only if the parent's copy is stored (core/ingest/fork-copies.ts).
    expect(own(out).map((m) => m.blocks[0]?.text)).toEqual(['fork prompt', 'fork answer']);
    expect(copied(out).map((m) => m.blocks[0]?.text)).toEqual(['parent prompt', 'parent answer']);
    expect(own(out).some((m) => m.usage)).toBe(false);
    expect(out.skipped.fork_replay).toBeUndefined();
  });

  it('marks replayed items that keep their original (older) timestamps', () => {
    const out = parse([
      meta({ forked_from_id: PARENT }, forkTs),
      user('2026-01-01T09:00:01Z', 'parent prompt'),
      assistant('2026-01-01T09:00:02Z', 'parent answer'),
      user('2026-01-02T10:00:00.500Z', 'fork prompt'),
    ]);
    expect(own(out).map((m) => m.blocks[0]?.text)).toEqual(['fork prompt']);
    expect(copied(out).map((m) => m.blocks[0]?.text)).toEqual(['parent prompt', 'parent answer']);
  });

  it('marks a spawned subagent thread with relation subagent and keeps a rollout without replay intact', () => {
    const out = parse([
      meta(
        { source: { subagent: { thread_spawn: { parent_thread_id: PARENT, depth: 1, agent_role: 'worker' } } } },
        forkTs,
      ),
      user('2026-01-02T10:00:00.010Z', 'subagent task'),
    ]);
    expect(out.sessions[0]).toMatchObject({ parentKey: PARENT, relation: 'subagent' });
    expect(out.messages.map((m) => m.blocks[0]?.text)).toEqual(['subagent task']);
  });
});

describe('codex parser: generations 1 and 2, prompt log, detection', () => {
  it('parses generation 2: header, state lines, bare items, cwd from environment_context', () => {
    const out = parse([
      JSON.stringify({ id: ID, timestamp: '2025-08-24T17:04:10.503Z', instructions: null, git: { branch: 'dev' } }),
      JSON.stringify({ record_type: 'state' }),
      JSON.stringify({
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<environment_context>\n<cwd>/repo</cwd>\n</environment_context>' }],
      }),
      JSON.stringify({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'search it' }] }),
      JSON.stringify({ type: 'function_call', name: 'web_search', arguments: '{"query":"q"}', call_id: 'k1' }),
      JSON.stringify({ type: 'function_call_output', call_id: 'k1', output: '{"query":"q","results":[]}' }),
      JSON.stringify({ type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'thinking' }] }),
      JSON.stringify({ type: 'unheard_of' }),
    ]);
    expect(out.sessions[0]).toMatchObject({ key: ID, project: '/repo', gitBranch: 'dev', meta: { generation: 2 } });
    expect(out.messages.map((m) => m.kind)).toEqual(['meta', 'prompt', 'response', 'tool_output', 'response']);
    expect(out.skipped).toEqual({ 'record_type:state': 1, unheard_of: 1 });
  });

  it('parses a generation-1 document from disk and reports a truncated one as malformed', () => {
    const good = join(tmp, `rollout-2025-08-23-${ID}.json`);
    const doc = {
      session: { id: ID, timestamp: '2025-08-23T11:03:20.415Z' },
      items: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          content: '',
          reasoning: 'We',
          tool_calls: [{ id: 'call_1', function: { name: 'shell', arguments: '{"command":["ls"]}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"output":"a\\nb"}' },
        7,
      ],
    };
    const text = JSON.stringify(doc, null, 2);
    writeFileSync(good, text);
    // the engine never hands over the final `}` (no newline): the parser reads the document itself
    const handed = text.split('\n').slice(0, -1);
    const out = codexAdapter.parseLines(lines(handed), { path: good });
    expect(out.sessions[0]).toMatchObject({ key: ID, meta: { generation: 1 } });
    expect(out.messages.map((m) => [m.key, m.kind])).toEqual([
      ['item:1', 'prompt'],
      ['item:2', 'response'],
      ['item:3', 'tool_output'],
    ]);
    expect(out.messages[2]?.blocks[0]).toMatchObject({ toolCallId: 'call_1', toolName: 'shell', text: 'a\nb' });
    expect(out.malformed).toEqual([{ line: 4, reason: 'item is not a JSON object' }]);
    expect(codexAdapter.parseLines(lines(['  }'], 40), { path: good }).messages).toEqual([]);

    const cut = join(tmp, `rollout-2025-08-23-${ID.replace('dddd', 'eeee')}.json`);
    writeFileSync(cut, text.slice(0, 120));
    const bad = codexAdapter.parseLines(lines(text.slice(0, 120).split('\n')), { path: cut });
    expect(bad.messages).toEqual([]);
    expect(bad.malformed[0]?.reason).toMatch(/^invalid or truncated JSON document/);
  });

  it('reports history.jsonl as not a session and detects Codex files only', () => {
    const out = codexAdapter.parseLines(lines([JSON.stringify({ session_id: ID, ts: 1, text: 'hi' })]), {
      path: '/h/.codex/history.jsonl',
    });
    expect(out.notSession).toBe(HISTORY_REASON);
    expect(codexAdapter.detect('/h/.codex/history.jsonl', '{"session_id":"x","ts":1,"text":"a"}')).toBe(true);
    expect(codexAdapter.detect('/h/.claude/history.jsonl', '{"display":"a","timestamp":1,"sessionId":"x"}')).toBe(
      false,
    );
    expect(codexAdapter.detect(PATH, meta())).toBe(true);
    expect(codexAdapter.detect('/x/notes.jsonl', meta())).toBe(false);
  });

  it('uses $CODEX_HOME as its root and discovers sessions, archived sessions and the prompt log', () => {
    expect(codexAdapter.defaultRoots({ CODEX_HOME: '/c', HOME: '/h' })).toEqual(['/c']);
    expect(codexAdapter.defaultRoots({ HOME: '/h' })).toEqual(['/h/.codex']);
    const home = join(tmp, 'codex-home');
    for (const p of ['sessions/2026/01/02', 'archived_sessions', 'log'])
      rmSync(join(home, p), { recursive: true, force: true });
    const files = [
      `sessions/2026/01/02/rollout-2026-01-02T10-00-00-${ID}.jsonl`,
      `archived_sessions/rollout-2025-12-01T10-00-00-${ID}.jsonl`,
      'history.jsonl',
      'log/codex-tui.log',
      'config.toml',
    ];
    for (const f of files) {
      const full = join(home, f);
      rmSync(full, { force: true });
      mkdirSync(join(full, '..'), { recursive: true });
      writeFileSync(full, meta() + '\n');
    }
    expect(codexAdapter.discover(home).map((f) => f.slice(home.length + 1))).toEqual([
      files[1],
      'history.jsonl',
      files[0],
    ]);
    const archived = codexAdapter.parseLines(lines([meta()]), { path: join(home, files[1]!) });
    expect(archived.sessions[0]?.meta).toMatchObject({ archived: true });
  });
});
