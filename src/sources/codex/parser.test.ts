// Edge cases of the Codex parser on generation-3 rollouts: injected context, call/output joins, images,
// reasoning, usage attachment, cwd changes, appended chunks without their session_meta, malformed lines.
import { describe, expect, it } from 'vitest';
import { assistant, env, ID, item, meta, parse, tokens, user } from '../../../test/support/codex-records.js';

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

  it('names an MCP tool with its namespace (Codex 0.17x), so strata knows its own search calls', () => {
    const out = parse([
      meta(),
      item('2026-01-02T10:00:01Z', {
        type: 'function_call',
        namespace: 'mcp__strata',
        name: 'search',
        arguments: '{"query":"quill"}',
        call_id: 'c1',
      }),
      item('2026-01-02T10:00:02Z', { type: 'function_call_output', call_id: 'c1', output: 'no matches' }),
    ]);
    const blocks = out.messages.flatMap((m) => m.blocks);
    expect(blocks.map((b) => [b.kind, b.toolName])).toEqual([
      ['tool_call', 'mcp__strata__search'],
      ['tool_result', 'mcp__strata__search'],
    ]);
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

  it(
    'counts malformed lines with their line number, unknown record types by name, and survives a truncated last ' +
      'line',
    () => {
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
      expect(out.skipped).toEqual({
        mystery_record: 1,
        'response_item:ghost_snapshot': 1,
        'event_msg:task_started': 1,
      });
      expect(out.messages.map((m) => m.kind)).toEqual(['prompt']);
    },
  );
});
