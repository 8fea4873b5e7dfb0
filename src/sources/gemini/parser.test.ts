// Edge cases of the Gemini parser: $set / $rewindTo / replace-by-id, malformed and unknown records, truncated
// files, tool results and errors, usage, thoughts, paths and detection.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { geminiAdapter } from './index.js';

const tmp = mkdtempSync(join(tmpdir(), 'strata-gemini-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const chats = join(tmp, '.gemini', 'tmp', 'myproj', 'chats');
mkdirSync(chats, { recursive: true });

function write(name: string, content: string): string {
  const path = join(chats, name);
  writeFileSync(path, content);
  return path;
}
const jsonl = (rows: unknown[]) => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';
const header = {
  sessionId: 'sess-1',
  projectHash: 'abc123',
  startTime: '2026-04-25T08:00:00Z',
  lastUpdated: '2026-04-25T08:00:00Z',
  kind: 'main',
};
const userMsg = (id: string, text: string) => ({
  id,
  timestamp: '2026-04-25T08:01:00Z',
  type: 'user',
  content: [{ text }],
});
const reply = (id: string, text: string, extra: object = {}) => ({
  id,
  timestamp: '2026-04-25T08:01:05Z',
  type: 'gemini',
  content: text,
  thoughts: [],
  model: 'gemini-3-flash-preview',
  ...extra,
});

describe('gemini parser: 2026 JSONL', () => {
  it(
    'applies $set, replace-by-id (keeping the first position) and $rewindTo (drops that message and the ' + 'rest)',
    async () => {
      const path = write(
        'session-2026-04-25T08-00-aaaa.jsonl',
        jsonl([
          header,
          userMsg('u1', 'first'),
          reply('g1', 'draft'),
          { $set: { lastUpdated: '2026-04-25T08:02:00Z', summary: 'Fix the DB' } },
          userMsg('u2', 'second'),
          reply('g2', 'answer two'),
          reply('g1', 'final'),
          { $rewindTo: 'u2' },
          userMsg('u3', 'third'),
        ]),
      );
      const out = await geminiAdapter.parseFile({ path });
      expect(out.messages.map((m) => [m.key, m.kind, m.blocks[0]?.text, m.line])).toEqual([
        ['u1', 'prompt', 'first', 2],
        ['g1', 'response', 'final', 7],
        ['u3', 'prompt', 'third', 9],
      ]);
      expect(out.sessions).toEqual([
        {
          key: 'sess-1',
          agent: 'gemini',
          title: 'Fix the DB',
          meta: {
            format: 'jsonl',
            projectHash: 'abc123',
            startTime: '2026-04-25T08:00:00Z',
            lastUpdated: '2026-04-25T08:02:00Z',
            kind: 'main',
            projectDir: 'myproj',
          },
        },
      ]);
      expect(out.sessions[0]?.project).toBeUndefined();
    },
  );

  it(
    'turns tool calls into call blocks plus tool_output messages, thoughts into thinking, tokens into ' + 'usage',
    async () => {
      const path = write(
        'session-2026-04-25T08-00-bbbb.jsonl',
        jsonl([
          header,
          reply('g1', 'running', {
            thoughts: [{ subject: 'Plan', description: 'List schemas', timestamp: 'x' }],
            tokens: { input: 1000, output: 50, cached: 600, thoughts: 20, tool: 5, total: 1075 },
            toolCalls: [
              {
                id: 't1',
                name: 'run_shell_command',
                args: { command: 'ls' },
                status: 'success',
                result: [{ functionResponse: { id: 't1', name: 'run_shell_command', response: { output: 'a b' } } }],
              },
              {
                id: 't2',
                name: 'run_shell_command',
                args: { command: 'rm' },
                status: 'cancelled',
                result: [{ functionResponse: { id: 't2', response: { error: 'User denied execution.' } } }],
              },
              { id: 't3', name: 'read_file', args: { path: 'x' }, status: 'executing' },
            ],
          }),
          { id: 'e1', timestamp: 'y', type: 'error', content: 'MCP error' },
          { id: 'i1', timestamp: 'y', type: 'info', content: 'Request cancelled.' },
        ]),
      );
      const out = await geminiAdapter.parseFile({ path });
      const [main, r1, r2, err, info] = out.messages;
      expect(main?.blocks.map((b) => [b.kind, b.text])).toEqual([
        ['thinking', 'Plan: List schemas'],
        ['text', 'running'],
        ['tool_call', '{"command":"ls"}'],
        ['tool_call', '{"command":"rm"}'],
        ['tool_call', '{"path":"x"}'],
      ]);
      expect(main?.usage).toEqual({
        apiMessageId: 'g1',
        model: 'gemini-3-flash-preview',
        inputTokens: 405,
        outputTokens: 70,
        cacheReadTokens: 600,
        cacheWriteTokens: 0,
      });
      expect(r1).toMatchObject({
        key: 'g1:result:t1',
        role: 'tool',
        kind: 'tool_output',
        blocks: [{ kind: 'tool_result', toolCallId: 't1', toolName: 'run_shell_command', text: 'a b', isError: false }],
      });
      expect(r2?.blocks[0]).toMatchObject({ toolCallId: 't2', text: 'User denied execution.', isError: true });
      expect(err).toMatchObject({ role: 'system', kind: 'error', blocks: [{ kind: 'system', text: 'MCP error' }] });
      expect(info).toMatchObject({ role: 'system', kind: 'system' });
      expect(out.messages).toHaveLength(5);
    },
  );

  it('keeps inline data as metadata only', async () => {
    const path = write(
      'session-2026-04-25T08-00-ffff.jsonl',
      jsonl([
        header,
        {
          id: 'u1',
          timestamp: 't',
          type: 'user',
          content: [{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgoAAAA' } }],
        },
      ]),
    );
    const out = await geminiAdapter.parseFile({ path });
    expect(out.messages[0]?.blocks).toEqual([
      { kind: 'text', text: 'look' },
      { kind: 'image', text: '', meta: { mediaType: 'image/png' } },
    ]);
    expect(JSON.stringify(out)).not.toContain('iVBORw0KGgo');
  });

  it('counts malformed lines, unknown records and a truncated last line without failing the file', async () => {
    const full = JSON.stringify(userMsg('u2', 'cut off here'));
    const path = write(
      'session-2026-04-25T08-00-cccc.jsonl',
      jsonl([
        header,
        userMsg('u1', 'ok'),
        '{oops',
        '[1,2]',
        { $set: 5 },
        { $rewindTo: 'nope' },
        { id: 'x1', timestamp: 'z', type: 'hologram', content: '?' },
        { something: 'else' },
        full.slice(0, 30),
      ]),
    );
    const out = await geminiAdapter.parseFile({ path });
    expect(out.messages.map((m) => m.key)).toEqual(['u1']);
    expect(out.malformed).toEqual([
      { line: 3, reason: 'invalid JSON' },
      { line: 4, reason: 'record is not a JSON object' },
      { line: 5, reason: '$set without an object' },
      { line: 9, reason: 'invalid JSON' },
    ]);
    expect(out.skipped).toEqual({ '$rewindTo:unknown-id': 1, 'type:hologram': 1, untyped: 1 });
  });
});

describe('gemini parser: 2025 JSON, prompt logs, checkpoints, discovery', () => {
  it('parses a 2025 document and reports a truncated one as malformed with its offset', async () => {
    const doc = {
      ...header,
      messages: [
        userMsg('u1', 'hola'),
        reply('g1', 'hi', { tokens: { input: 10, output: 2, cached: 0, thoughts: 1, tool: 0, total: 13 } }),
        'junk',
      ],
    };
    const text = JSON.stringify(doc, null, 2);
    const out = await geminiAdapter.parseFile({ path: write('session-2025-09-26T15-33-dddd.json', text) });
    expect(out.sessions[0]).toMatchObject({ key: 'sess-1', meta: { format: 'json' } });
    expect(out.messages.map((m) => [m.key, m.line, m.kind])).toEqual([
      ['u1', 1, 'prompt'],
      ['g1', 2, 'response'],
    ]);
    expect(out.malformed).toEqual([{ line: 3, reason: 'message is not a JSON object' }]);
    const cut = await geminiAdapter.parseFile({
      path: write('session-2025-09-26T15-33-eeee.json', text.slice(0, 200)),
    });
    expect(cut.messages).toEqual([]);
    expect(cut.malformed[0]).toMatchObject({ line: 1, reason: 'invalid or truncated JSON document' });
  });

  it('reports logs.json and checkpoints as not sessions, and discovers them with the chats', async () => {
    const dir = join(tmp, '.gemini', 'tmp', 'myproj');
    writeFileSync(join(dir, 'logs.json'), '[{"sessionId":"s","messageId":0,"type":"user","message":"/help"}]');
    writeFileSync(join(dir, 'checkpoint-save1.json'), '[{"role":"user","parts":[{"text":"x"}]}]');
    writeFileSync(join(dir, 'settings.json'), '{}');
    expect((await geminiAdapter.parseFile({ path: join(dir, 'logs.json') })).notSession).toMatch(/^Gemini prompt log/);
    expect((await geminiAdapter.parseFile({ path: join(dir, 'checkpoint-save1.json') })).notSession).toMatch(
      /^Gemini checkpoint/,
    );
    const found = geminiAdapter.discover(join(tmp, '.gemini', 'tmp')).map((f) => f.slice(dir.length + 1));
    expect(found).toContain('logs.json');
    expect(found).toContain('checkpoint-save1.json');
    expect(found).toContain('chats/session-2026-04-25T08-00-aaaa.jsonl');
    expect(found).not.toContain('settings.json');
    expect(geminiAdapter.defaultRoots({ HOME: '/h' })).toEqual(['/h/.gemini/tmp']);
    expect(geminiAdapter.detect(join(dir, 'logs.json'), '[{"sessionId":"s","messageId":0}]')).toBe(true);
    expect(geminiAdapter.detect('/elsewhere/session-1.json', '{"sessionId":"x"}')).toBe(false);
  });
});
