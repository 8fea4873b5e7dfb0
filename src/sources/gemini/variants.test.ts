// Newer Gemini CLI shapes (gemini-cli packages/core/src/services/chatRecordingService.ts): subagent sessions under
// chats/<parentSessionId>/, content as one Part object, function/code parts inside content, results only in
// resultDisplay, and whole message lists set through `$set`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { geminiAdapter } from './index.js';

const tmp = mkdtempSync(join(tmpdir(), 'strata-gemini-variants-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const chats = join(tmp, '.gemini', 'tmp', 'proj', 'chats');
const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
function write(rel: string, content: string): string {
  const path = join(chats, rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}
const header = (sessionId: string, extra: object = {}) => ({ sessionId, projectHash: 'h', ...extra });
const parse = async (path: string) => await geminiAdapter.parseFile({ path });
const allTexts = (out: Awaited<ReturnType<typeof parse>>) => out.messages.flatMap((m) => m.blocks.map((b) => b.text));

describe('gemini: subagent sessions', () => {
  it('discovers chats/<parent>/<id>.jsonl and links it to the parent session', async () => {
    const path = write(
      'parent-session-1/sub-1.jsonl',
      jsonl([header('sub-1', { kind: 'subagent' }), { id: 'm1', type: 'user', content: [{ text: 'look around' }] }]),
    );
    expect(geminiAdapter.discover(tmp)).toContain(path);
    expect(geminiAdapter.detect(path, '{"sessionId":"sub-1"}')).toBe(true);
    const out = await parse(path);
    expect(out.sessions[0]).toMatchObject({ key: 'sub-1', parentKey: 'parent-session-1', relation: 'subagent' });
    expect(allTexts(out)).toEqual(['look around']);
  });
});

describe('gemini: content and tool shapes', () => {
  it('reads content given as one Part object and keeps function and code parts', async () => {
    const path = write(
      'session-2026-11-01T10-00-aaaa.jsonl',
      jsonl([
        header('s2'),
        { id: 'u1', type: 'user', content: { text: 'single part prompt' } },
        {
          id: 'g1',
          type: 'gemini',
          content: [
            { executableCode: { language: 'PYTHON', code: 'print(42)' } },
            { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42' } },
            { functionCall: { id: 'fc1', name: 'read_file', args: { path: 'a.ts' } } },
            { functionResponse: { id: 'fc1', name: 'read_file', response: { output: 'file body' } } },
          ],
        },
      ]),
    );
    const out = await parse(path);
    const blocks = out.messages.flatMap((m) => m.blocks);
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ['text', 'single part prompt'],
      ['text', 'print(42)'],
      ['text', '42'],
      ['tool_call', '{"path":"a.ts"}'],
      ['tool_result', 'file body'],
    ]);
    expect(blocks[3]).toMatchObject({ toolName: 'read_file', toolCallId: 'fc1' });
    expect(blocks[4]).toMatchObject({ toolName: 'read_file', toolCallId: 'fc1' });
  });

  it('uses resultDisplay when a tool call has no result', async () => {
    const path = write(
      'session-2026-11-01T10-01-bbbb.jsonl',
      jsonl([
        header('s3'),
        {
          id: 'g1',
          type: 'gemini',
          content: '',
          toolCalls: [{ id: 't1', name: 'run_shell_command', args: {}, status: 'success', resultDisplay: 'ok done' }],
        },
      ]),
    );
    const out = await parse(path);
    const result = out.messages.flatMap((m) => m.blocks).find((b) => b.kind === 'tool_result');
    expect(result).toMatchObject({ text: 'ok done', toolCallId: 't1' });
  });

  it('keeps messages given in a $set of the whole message list', async () => {
    const path = write(
      'session-2026-11-01T10-02-cccc.jsonl',
      jsonl([
        header('s4'),
        { $set: { messages: [{ id: 'x1', type: 'user', content: 'from the set' }] } },
        { id: 'x2', type: 'gemini', content: 'appended reply' },
      ]),
    );
    const out = await parse(path);
    expect(allTexts(out)).toEqual(['from the set', 'appended reply']);
  });
});

describe('gemini: displayContent', () => {
  it('stores what the person typed as the prompt and the expanded file text as marked context', async () => {
    const path = write(
      'session-2026-11-01T10-03-dddd.jsonl',
      jsonl([
        header('s5'),
        {
          id: 'u1',
          type: 'user',
          content: [
            { text: 'explain @a.ts' },
            { text: '--- Content from referenced files ---' },
            { text: 'const a = 1;' },
          ],
          displayContent: [{ text: 'explain @a.ts' }],
        },
        {
          id: 'g1',
          type: 'gemini',
          content: 'it sets a',
          toolCalls: [{ id: 't1', name: 'invoke_agent', args: {}, status: 'success', agentId: 'agent-7', result: 'x' }],
        },
      ]),
    );
    const out = await parse(path);
    const prompt = out.messages[0];
    expect(prompt?.kind).toBe('prompt');
    expect(prompt?.blocks.map((b) => [b.text, b.noise])).toEqual([
      ['explain @a.ts', undefined],
      ['--- Content from referenced files ---', 'expanded_content'],
      ['const a = 1;', 'expanded_content'],
    ]);
    const call = out.messages[1]?.blocks.find((b) => b.kind === 'tool_call');
    expect(call?.meta).toMatchObject({ agentId: 'agent-7' });
  });
});

describe('gemini: empty records', () => {
  it('counts a record with no content, tool calls or usage as empty instead of storing a blank message', async () => {
    const path = write(
      'session-2026-11-01T10-04-eeee.jsonl',
      jsonl([header('s6'), { id: 'u1', type: 'user', content: null }, { id: 'u2', type: 'user', content: 'kept' }]),
    );
    const out = await parse(path);
    expect(allTexts(out)).toEqual(['kept']);
    expect(out.skipped).toEqual({ 'type:user:empty': 1 });
  });
});
