// Content block types of the Messages API that transcripts can hold beyond text/thinking/tool_use/tool_result:
// MCP connector calls, server tool results (web search, code execution) and block types newer than this parser.
import { describe, expect, it } from 'vitest';
import type { LineRecord } from '../types.js';
import { parseClaudeCodeLines } from './parser.js';

const SID = '22222222-3333-4444-5555-666666666666';
const PATH = `/nonexistent/projects/-work/${SID}.jsonl`;
const base = { sessionId: SID, cwd: '/work/app', timestamp: '2026-11-01T00:00:00.000Z' };
const rec = (fields: Record<string, unknown>) => JSON.stringify({ ...base, ...fields });
const user = (uuid: string, content: unknown) => rec({ type: 'user', uuid, message: { role: 'user', content } });
const assistant = (uuid: string, content: unknown[]) =>
  rec({ type: 'assistant', uuid, message: { id: `msg_${uuid}`, role: 'assistant', model: 'claude-x', content } });
const parse = (texts: string[]) => {
  const lines: LineRecord[] = texts.map((text, i) => ({ text, line: i + 1 }));
  return parseClaudeCodeLines(lines, { path: PATH });
};
const blocksOf = (out: ReturnType<typeof parse>) => out.messages.flatMap((m) => m.blocks);

describe('claude-code: server and connector tool blocks', () => {
  it('keeps mcp_tool_use as a tool call and its mcp_tool_result as the result', () => {
    const out = parse([
      assistant('a1', [
        { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'lookup', server_name: 'docs', input: { q: 'needle' } },
        {
          type: 'mcp_tool_result',
          tool_use_id: 'mcptoolu_1',
          is_error: false,
          content: [{ type: 'text', text: 'hit' }],
        },
      ]),
    ]);
    const [call, result] = blocksOf(out);
    expect(call).toMatchObject({ kind: 'tool_call', toolName: 'lookup', toolCallId: 'mcptoolu_1' });
    expect(call?.meta).toMatchObject({ serverName: 'docs' });
    expect(result).toMatchObject({ kind: 'tool_result', text: 'hit', toolName: 'lookup' });
    expect(out.skipped).toEqual({});
  });

  it('keeps web search result titles and urls, and code execution stdout/stderr, as result text', () => {
    const out = parse([
      assistant('a1', [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: [
            { type: 'web_search_result', title: 'Result page', url: 'https://example.com/a', encrypted_content: 'x' },
          ],
        },
        {
          type: 'code_execution_tool_result',
          tool_use_id: 'srvtoolu_2',
          content: { type: 'code_execution_result', stdout: 'printed', stderr: 'warned', return_code: 1 },
        },
      ]),
    ]);
    const results = blocksOf(out).filter((b) => b.kind === 'tool_result');
    expect(results[0]?.text).toBe('Result page https://example.com/a');
    expect(results[0]?.text).not.toContain('encrypted');
    expect(results[1]?.text).toBe('printed\nwarned');
    expect(results[1]?.isError).toBe(true);
  });
});

describe('claude-code: block types newer than this parser', () => {
  it('keeps any text-bearing block as text, and counts text-less ones by type', () => {
    const out = parse([
      user('u1', [
        { type: 'text', text: 'typed' },
        { type: 'search_result', title: 'Doc', source: 's', content: [{ type: 'text', text: 'nested body' }] },
        { type: 'container_upload', file_id: 'f1' },
      ]),
      assistant('a1', [
        { type: 'text', text: 'reply' },
        { type: 'quoted_text_v9', text: 'future text' },
        { type: 'redacted_thinking', data: 'opaque' },
      ]),
    ]);
    expect(blocksOf(out).map((b) => [b.kind, b.text])).toEqual([
      ['text', 'typed'],
      ['text', 'Doc\nnested body'],
      ['text', 'reply'],
      ['text', 'future text'],
    ]);
    expect(out.skipped).toEqual({ 'block:container_upload': 1, 'block:redacted_thinking': 1 });
  });
});
