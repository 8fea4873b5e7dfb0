// Edge cases of the Codex parser: malformed and unknown records, truncated files, appended chunks without
// their session_meta, fork/subagent replay, usage attachment, injected context, the history.jsonl prompt log.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LineRecord } from '../types.js';
import { codexAdapter } from './index.js';
import { HISTORY_REASON } from './parser.js';

const ID = '019c0000-aaaa-7bbb-8ccc-dddddddddddd';
const PATH = `/home/u/.codex/sessions/2026/01/02/rollout-2026-01-02T10-00-00-${ID}.jsonl`;
const tmp = mkdtempSync(join(tmpdir(), 'strata-codex-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const env = (timestamp: string, type: string, payload: object) => JSON.stringify({ timestamp, type, payload });
const meta = (extra: object = {}, ts = '2026-01-02T10:00:00.000Z') =>
  env(ts, 'session_meta', {
    id: ID,
    timestamp: ts,
    cwd: '/work/app',
    cli_version: '0.90.0',
    git: { branch: 'main' },
    ...extra,
  });
const item = (ts: string, payload: object) => env(ts, 'response_item', payload);
const user = (ts: string, text: string) =>
  item(ts, { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const assistant = (ts: string, text: string) =>
  item(ts, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
const tokens = (ts: string, total: number, input: number, cached: number, output: number) =>
  env(ts, 'event_msg', {
    type: 'token_count',
    info: {
      total_token_usage: { total_tokens: total },
      last_token_usage: {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        reasoning_output_tokens: 1,
      },
    },
  });
const lines = (texts: string[], start = 1): LineRecord[] => texts.map((text, i) => ({ text, line: start + i }));
const parse = (texts: string[], start = 1, path = PATH) => codexAdapter.parseLines(lines(texts, start), { path });

describe('codex parser: generation 3', () => {
  it('keeps the typed prompt once, marks injected context as meta and developer text as system meta', () => {
    const out = parse([
      meta(),
      item('2026-01-02T10:00:01Z', {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: '<permissions instructions>x' }],
      }),
      user('2026-01-02T10:00:01Z', '<environment_context>\n  <cwd>/work/app</cwd>\n</environment_context>'),
      user('2026-01-02T10:00:02Z', 'fix the bug'),
      env('2026-01-02T10:00:02Z', 'event_msg', { type: 'user_message', message: 'fix the bug' }),
      env('2026-01-02T10:00:03Z', 'event_msg', { type: 'agent_message', message: 'done' }),
      assistant('2026-01-02T10:00:03Z', 'done'),
    ]);
    expect(out.messages.map((m) => [m.key, m.role, m.kind])).toEqual([
      ['line:2', 'system', 'meta'],
      ['line:3', 'user', 'meta'],
      ['line:4', 'user', 'prompt'],
      ['line:7', 'assistant', 'response'],
    ]);
    expect(out.messages[1]?.blocks[0]?.noise).toBe('environment_context');
    expect(out.skipped).toEqual({ 'event_msg:user_message': 1, 'event_msg:agent_message': 1 });
    expect(out.sessions[0]).toMatchObject({ key: ID, agent: 'codex', project: '/work/app', gitBranch: 'main' });
  });

  it('joins calls and outputs by call_id, parses arguments, keeps invalid arguments raw, flags non-zero exits', () => {
    const out = parse([
      meta(),
      item('2026-01-02T10:00:01Z', {
        type: 'function_call',
        name: 'exec_command',
        arguments: '{"cmd":"ls"}',
        call_id: 'c1',
      }),
      item('2026-01-02T10:00:02Z', {
        type: 'function_call_output',
        call_id: 'c1',
        output: 'Process exited with code 2\nOutput:\nnope',
      }),
      item('2026-01-02T10:00:03Z', {
        type: 'custom_tool_call',
        name: 'apply_patch',
        input: '*** Begin Patch',
        call_id: 'c2',
      }),
      item('2026-01-02T10:00:04Z', {
        type: 'custom_tool_call_output',
        call_id: 'c2',
        output: '{"output":"Success","metadata":{"exit_code":0}}',
      }),
      item('2026-01-02T10:00:05Z', { type: 'function_call', name: 'shell', arguments: '{broken', call_id: 'c3' }),
      item('2026-01-02T10:00:06Z', {
        type: 'web_search_call',
        id: 'ws_1',
        status: 'completed',
        action: { type: 'search', query: 'vitest' },
      }),
      item('2026-01-02T10:00:07Z', {
        type: 'local_shell_call',
        call_id: 'c4',
        action: { type: 'exec', command: ['ls'] },
      }),
    ]);
    const blocks = out.messages.flatMap((m) => m.blocks);
    expect(blocks[0]).toMatchObject({
      kind: 'tool_call',
      toolName: 'exec_command',
      toolCallId: 'c1',
      toolInput: { cmd: 'ls' },
      text: '{"cmd":"ls"}',
    });
    expect(blocks[1]).toMatchObject({ kind: 'tool_result', toolCallId: 'c1', toolName: 'exec_command', isError: true });
    expect(blocks[2]).toMatchObject({ toolName: 'apply_patch', toolInput: '*** Begin Patch' });
    expect(blocks[3]).toMatchObject({ kind: 'tool_result', text: 'Success', isError: false, toolName: 'apply_patch' });
    expect(blocks[4]).toMatchObject({ toolName: 'shell', toolInput: '{broken' });
    expect(blocks[5]).toMatchObject({
      kind: 'tool_call',
      toolName: 'web_search',
      toolCallId: 'ws_1',
      toolInput: { type: 'search', query: 'vitest' },
    });
    expect(blocks[6]).toMatchObject({ kind: 'tool_call', toolName: 'local_shell', toolCallId: 'c4' });
    expect(out.messages[1]).toMatchObject({ role: 'tool', kind: 'tool_output' });
  });

  it('keeps image metadata only, never the data URL', () => {
    const out = parse([
      meta(),
      item('2026-01-02T10:00:01Z', {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'see' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgoAAAA' },
        ],
      }),
    ]);
    expect(out.messages[0]?.blocks[1]).toEqual({
      kind: 'image',
      text: '',
      meta: { mediaType: 'image/png', inline: true },
    });
    expect(JSON.stringify(out)).not.toContain('iVBORw0KGgo');
  });

  it('stores reasoning summaries as thinking, never encrypted content', () => {
    const out = parse([
      meta(),
      item('2026-01-02T10:00:01Z', {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: '**Plan**' }],
        encrypted_content: 'gAAAAsecret',
      }),
      item('2026-01-02T10:00:02Z', { type: 'reasoning', summary: [], encrypted_content: 'gAAAAsecret' }),
    ]);
    expect(out.messages).toHaveLength(1);
    expect(out.messages[0]?.blocks).toEqual([{ kind: 'thinking', text: '**Plan**' }]);
    expect(JSON.stringify(out)).not.toContain('gAAAAsecret');
    expect(out.skipped['reasoning:encrypted']).toBe(1);
  });

  it('attaches each distinct token_count to an assistant message, cached input counted once', () => {
    const out = parse([
      meta(),
      env('2026-01-02T10:00:00Z', 'turn_context', { cwd: '/work/app', model: 'gpt-5-codex' }),
      user('2026-01-02T10:00:01Z', 'go'),
      assistant('2026-01-02T10:00:02Z', 'ok'),
      tokens('2026-01-02T10:00:03Z', 1100, 1000, 400, 100),
      tokens('2026-01-02T10:00:03Z', 1100, 1000, 400, 100),
      tokens('2026-01-02T10:00:04Z', 2300, 1150, 1000, 50),
      assistant('2026-01-02T10:00:05Z', 'next'),
    ]);
    const withUsage = out.messages.filter((m) => m.usage);
    expect(withUsage.map((m) => [m.key, m.usage])).toEqual([
      [
        'line:4',
        {
          apiMessageId: `${ID}:tc:1100`,
          model: 'gpt-5-codex',
          inputTokens: 600,
          outputTokens: 100,
          cacheReadTokens: 400,
          cacheWriteTokens: 0,
        },
      ],
      [
        'line:8',
        {
          apiMessageId: `${ID}:tc:2300`,
          model: 'gpt-5-codex',
          inputTokens: 150,
          outputTokens: 50,
          cacheReadTokens: 1000,
          cacheWriteTokens: 0,
        },
      ],
    ]);
    expect(out.messages[1]?.model).toBe('gpt-5-codex');
    expect(out.skipped['event_msg:token_count:repeat']).toBe(1);
  });

  it('keeps the first cwd as project and records a later cwd change on the next message', () => {
    const out = parse([
      meta(),
      env('2026-01-02T10:00:00Z', 'turn_context', { cwd: '/work/app' }),
      user('2026-01-02T10:00:01Z', 'one'),
      env('2026-01-02T10:01:00Z', 'turn_context', { cwd: '/work/other' }),
      user('2026-01-02T10:01:01Z', 'two'),
    ]);
    expect(out.sessions[0]?.project).toBe('/work/app');
    expect(out.messages[0]?.meta).toBeUndefined();
    expect(out.messages[1]?.meta).toEqual({ cwd: '/work/other' });
  });

  it('parses an appended chunk without session_meta: key from the file name, output linked by call id', () => {
    const first = parse([
      meta(),
      item('2026-01-02T10:00:01Z', { type: 'function_call', name: 'shell', arguments: '{}', call_id: 'late' }),
    ]);
    const chunk = parse(
      [
        item('2026-01-02T10:00:09Z', { type: 'function_call_output', call_id: 'late', output: 'ok' }),
        tokens('2026-01-02T10:00:10Z', 50, 40, 0, 10),
      ],
      3,
    );
    expect(chunk.sessions).toEqual([{ key: ID, agent: 'codex' }]);
    expect(chunk.messages[0]).toMatchObject({ sessionKey: ID, key: 'line:3', kind: 'tool_output' });
    expect(chunk.messages[0]?.blocks[0]).toMatchObject({ toolCallId: 'late', text: 'ok' });
    expect(first.messages[0]?.blocks[0]?.toolCallId).toBe('late');
    // usage with no assistant item left in the chunk rides on a block-less carrier message
    expect(chunk.messages[1]).toMatchObject({
      key: 'line:4',
      role: 'assistant',
      kind: 'system',
      blocks: [],
      usage: { outputTokens: 10 },
    });
  });

  it('counts malformed lines with their line number, unknown record types by name, and survives a truncated last line', () => {
    const full = user('2026-01-02T10:00:02Z', 'hello');
    const out = parse([
      meta(),
      '{not json',
      '42',
      JSON.stringify({ timestamp: 'x', type: 'response_item', payload: 'nope' }),
      env('2026-01-02T10:00:01Z', 'mystery_record', {}),
      item('2026-01-02T10:00:01Z', { type: 'ghost_snapshot' }),
      env('2026-01-02T10:00:01Z', 'event_msg', { type: 'task_started' }),
      full,
      full.slice(0, 40),
    ]);
    expect(out.malformed).toEqual([
      { line: 2, reason: 'invalid JSON' },
      { line: 3, reason: 'record is not a JSON object' },
      { line: 4, reason: 'response_item record without an object payload' },
      { line: 9, reason: 'invalid JSON' },
    ]);
    expect(out.skipped).toEqual({ mystery_record: 1, 'response_item:ghost_snapshot': 1, 'event_msg:task_started': 1 });
    expect(out.messages.map((m) => m.kind)).toEqual(['prompt']);
  });
});

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
