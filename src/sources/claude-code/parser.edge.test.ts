// Edge cases of the Claude Code parser on synthetic lines: malformed, truncated, unknown and untyped
// records, binary and huge input, kinds and noise marking, assistant merging, persisted-output sidecars.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LineRecord } from '../types.js';
import { parseClaudeCodeLines } from './parser.js';

const SID = '11111111-2222-3333-4444-555555555555';
const PATH = `/nonexistent/projects/-work/${SID}.jsonl`;
const env = {
  sessionId: SID,
  cwd: '/work/app',
  gitBranch: 'main',
  version: '2.1.0',
  timestamp: '2026-01-01T00:00:00.000Z',
};

function rec(fields: Record<string, unknown>): string {
  return JSON.stringify({ ...env, ...fields });
}
function user(uuid: string, content: unknown, extra: Record<string, unknown> = {}): string {
  return rec({ type: 'user', uuid, message: { role: 'user', content }, ...extra });
}
function assistant(uuid: string, id: string, content: unknown[], extra: Record<string, unknown> = {}): string {
  const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 7 };
  return rec({
    type: 'assistant',
    uuid,
    requestId: 'req_1',
    message: { id, role: 'assistant', model: 'claude-opus-4', content, usage },
    ...extra,
  });
}
function lines(...texts: string[]): LineRecord[] {
  return texts.map((text, i) => ({ text, line: i + 1 }));
}
const parse = (texts: string[], path = PATH) => parseClaudeCodeLines(lines(...texts), { path });

describe('claude-code parser: bad input never throws', () => {
  it('reports malformed JSON and non-object lines with their line numbers, keeps the rest', () => {
    const out = parse([user('u1', 'hello'), '{"type":"user",', '[1,2]', '', user('u2', 'again')]);
    expect(out.malformed).toEqual([
      { line: 2, reason: 'invalid JSON' },
      { line: 3, reason: 'not a JSON object' },
    ]);
    expect(out.messages.map((m) => m.key)).toEqual(['u1', 'u2']);
  });

  it('keeps user and assistant records without ids, keyed by their line', () => {
    const bare = (type: string, content: unknown) =>
      JSON.stringify({ type, sessionId: SID, message: { role: type, content } });
    const out = parse([bare('user', 'which cache?'), bare('assistant', [{ type: 'text', text: 'the LRU one' }])]);
    expect(out.malformed).toEqual([]);
    expect(out.messages.map((m) => [m.key, m.role, m.blocks[0]?.text])).toEqual([
      ['line-1', 'user', 'which cache?'],
      ['line-2', 'assistant', 'the LRU one'],
    ]);
  });

  it('treats a truncated last line as malformed', () => {
    const full = assistant('a1', 'msg_1', [{ type: 'text', text: 'done' }]);
    const out = parse([user('u1', 'go'), full.slice(0, full.length - 9)]);
    expect(out.malformed).toEqual([{ line: 2, reason: 'invalid JSON' }]);
    expect(out.messages).toHaveLength(1);
  });

  it('counts unknown, untyped and known-unused record types', () => {
    const out = parse([
      JSON.stringify({ type: 'brand-new-thing', sessionId: SID }),
      JSON.stringify({ uuid: 'x', message: { content: 'no type' } }),
      JSON.stringify({ type: 'progress', sessionId: SID, uuid: 'p1' }),
      JSON.stringify({ type: 'file-history-snapshot', messageId: 'm', snapshot: {} }),
      JSON.stringify({ type: 'user', uuid: 'u0', sessionId: SID }),
      user('u1', 'real'),
    ]);
    expect(out.skipped).toEqual({ 'brand-new-thing': 1, untyped: 1, progress: 1, 'file-history-snapshot': 1 });
    expect(out.malformed).toEqual([{ line: 5, reason: 'user record without a message object' }]);
    expect(out.messages.map((m) => m.key)).toEqual(['u1']);
  });

  it('survives a binary file, an empty file and a 50 MB single line', () => {
    const binary = String.fromCharCode(...Array.from({ length: 4000 }, (_, i) => (i * 7919) % 256));
    const garbage = parse(binary.split('\n'));
    expect(garbage.messages).toEqual([]);
    expect(garbage.malformed.length).toBeGreaterThan(0);
    expect(parse([])).toEqual({ sessions: [], messages: [], malformed: [], skipped: {} });
    expect(parse([''])).toEqual({ sessions: [], messages: [], malformed: [], skipped: {} });

    const big = 'word <system-reminder '.repeat((50 * 1024 * 1024) / 22);
    const huge = parse([user('u1', big)]);
    expect(huge.messages).toHaveLength(1);
    expect(huge.messages[0]!.blocks.map((b) => b.text).join('').length).toBeGreaterThan(49 * 1024 * 1024);
    const hugeBad = parse(['{"type":"user","x":"' + 'a'.repeat(50 * 1024 * 1024)]);
    expect(hugeBad.malformed).toEqual([{ line: 1, reason: 'invalid JSON' }]);
  });

  it('keeps U+2028 / U+0085 inside strings', () => {
    const out = parse([user('u1', 'a\u2028b\u0085c')]);
    expect(out.messages[0]!.blocks[0]!.text).toBe('a\u2028b\u0085c');
  });

  it('drops a replayed record (same uuid) within one parse', () => {
    const out = parse([user('u1', 'hi'), user('u1', 'hi')]);
    expect(out.messages).toHaveLength(1);
    expect(out.skipped['duplicate-uuid']).toBe(1);
  });
});

describe('claude-code parser: model', () => {
  it('merges the lines of one assistant reply by message id and keeps usage once', () => {
    const out = parse([
      user('u1', 'fix it'),
      assistant('a1', 'msg_1', [{ type: 'thinking', thinking: 'hmm', signature: 'SIG' }]),
      assistant('a2', 'msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls\n-la' } }]),
      user(
        'u2',
        [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'a.txt' }], is_error: true }],
        {
          toolUseResult: { stdout: 'a.txt', stderr: '', interrupted: false, agentId: 'abc', structuredPatch: [1, 2] },
        },
      ),
    ]);
    expect(out.messages).toHaveLength(3);
    const reply = out.messages[1]!;
    expect(reply).toMatchObject({
      key: 'msg_1',
      role: 'assistant',
      kind: 'response',
      model: 'claude-opus-4',
      line: 2,
      meta: { requestId: 'req_1' },
    });
    expect(reply.blocks).toEqual([
      { kind: 'thinking', text: 'hmm' },
      {
        kind: 'tool_call',
        text: '{"command":"ls\\n-la"}',
        toolName: 'Bash',
        toolCallId: 'toolu_1',
        toolInput: { command: 'ls\n-la' },
        textIsInput: true,
      },
    ]);
    expect(reply.usage).toEqual({
      apiMessageId: 'msg_1',
      model: 'claude-opus-4',
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: 100,
      cacheWriteTokens: 7,
    });
    expect(out.messages[2]).toMatchObject({ kind: 'tool_output', role: 'tool' });
    expect(out.messages[2]!.blocks).toEqual([
      {
        kind: 'tool_result',
        text: 'a.txt',
        isError: true,
        toolCallId: 'toolu_1',
        toolName: 'Bash',
        meta: { interrupted: false, agentId: 'abc' },
      },
    ]);
    expect(out.sessions).toEqual([
      {
        key: SID,
        agent: 'claude-code',
        project: '/work/app',
        gitBranch: 'main',
        meta: { version: '2.1.0', models: ['claude-opus-4'] },
      },
    ]);
  });

  it('classifies prompts, noise, meta, compaction, system and API errors', () => {
    const out = parse([
      user('p1', 'please add tests'),
      user(
        'n1',
        '<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>',
      ),
      user('m1', 'Caveat: generated', { isMeta: true }),
      user('mix', [
        { type: 'text', text: '<ide_opened_file>The user opened a.ts</ide_opened_file> why does this fail?' },
      ]),
      user('i1', '[Request interrupted by user]'),
      rec({
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 's1',
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'manual', preTokens: 5 },
      }),
      user('c1', 'This session is being continued...', { isCompactSummary: true }),
      assistant('e1', 'err-1', [{ type: 'text', text: 'API Error: overloaded' }], { isApiErrorMessage: true }),
    ]);
    const byKey = Object.fromEntries(out.messages.map((m) => [m.key, m]));
    expect(byKey.p1!.kind).toBe('prompt');
    expect(byKey.n1!.kind).toBe('meta');
    expect(byKey.n1!.blocks.map((b) => b.noise)).toEqual(['command-name', 'command-message', 'command-args']);
    expect(byKey.m1!.kind).toBe('meta');
    expect(byKey.mix!.kind).toBe('prompt');
    expect(byKey.mix!.blocks).toEqual([
      { kind: 'text', text: '<ide_opened_file>The user opened a.ts</ide_opened_file>', noise: 'ide_opened_file' },
      { kind: 'text', text: 'why does this fail?' },
    ]);
    expect(byKey.i1).toMatchObject({ kind: 'meta', blocks: [{ noise: 'interrupted' }] });
    expect(byKey.s1).toMatchObject({
      kind: 'system',
      role: 'system',
      blocks: [{ kind: 'system', text: 'Conversation compacted' }],
      meta: { subtype: 'compact_boundary', compactMetadata: { trigger: 'manual', preTokens: 5 } },
    });
    expect(byKey.c1).toMatchObject({ kind: 'compaction', blocks: [{ kind: 'summary' }] });
    expect(byKey['err-1']).toMatchObject({ kind: 'error', role: 'assistant' });
    expect(byKey['err-1']!.usage).toBeUndefined();
  });

  it('takes the title from custom-title over ai-title over summary', () => {
    const out = parse([
      JSON.stringify({ type: 'summary', summary: 'From summary', leafUuid: 'x' }),
      user('u1', 'hi'),
      JSON.stringify({ type: 'ai-title', aiTitle: 'From AI', sessionId: SID }),
      JSON.stringify({ type: 'custom-title', customTitle: 'Mine', sessionId: SID }),
      JSON.stringify({ type: 'summary', summary: 'Later summary', leafUuid: 'y' }),
    ]);
    expect(out.sessions[0]!.title).toBe('Mine');
    expect(out.skipped).toEqual({ summary: 2, 'ai-title': 1, 'custom-title': 1 });
  });

  it('links an older-layout agent file beside the sessions by its sessionId', () => {
    const path = '/nonexistent/projects/-work/agent-a1b2c3.jsonl';
    const out = parse([user('u1', 'Explore the repo', { isSidechain: true, agentId: 'a1b2c3' })], path);
    expect(out.sessions).toEqual([
      {
        key: 'agent-a1b2c3',
        agent: 'claude-code',
        parentKey: SID,
        relation: 'subagent',
        project: '/work/app',
        gitBranch: 'main',
        meta: { agentId: 'a1b2c3', version: '2.1.0' },
      },
    ]);
    expect(out.messages[0]).toMatchObject({
      sessionKey: 'agent-a1b2c3',
      kind: 'meta',
      isSidechain: true,
      meta: { subagentPrompt: true },
    });
    const side = parse([user('u1', 'q', { isSidechain: true })], '/x/agent-aside_question-9f.jsonl');
    expect(side.sessions[0]!.relation).toBe('side_question');
  });
});

describe('claude-code parser: persisted tool output', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-cc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const preview = (id: string) =>
    `<persisted-output>\nOutput too large (2MB). Full output saved to: ` +
    `/home/someone/.claude/projects/-w/${SID}/tool-results/${id}.txt\n\nPreview (first 2KB):\nline ` +
    `1\n</persisted-output>`;
  const resultLine = (id: string) => user(`r-${id}`, [{ type: 'tool_result', tool_use_id: id, content: preview(id) }]);

  it('reads the sidecar (bounded to 1 MB) from a main or subagent transcript, keeps the preview when missing', () => {
    const slug = join(dir, '-w');
    mkdirSync(join(slug, SID, 'tool-results'), { recursive: true });
    mkdirSync(join(slug, SID, 'subagents'), { recursive: true });
    writeFileSync(join(slug, SID, 'tool-results', 'toolu_big.txt'), 'FULL OUTPUT\n' + 'x'.repeat(2 * 1024 * 1024));
    writeFileSync(join(slug, SID, 'tool-results', 'toolu_small.txt'), 'all of it');

    const main = parse([resultLine('toolu_big'), resultLine('toolu_gone')], join(slug, `${SID}.jsonl`));
    const [big, gone] = main.messages.map((m) => m.blocks[0]!);
    expect(big!.text.startsWith('FULL OUTPUT\n')).toBe(true);
    expect(big!.text.length).toBe(1024 * 1024);
    expect(big!.meta).toMatchObject({
      persistedOutputPath: join(slug, SID, 'tool-results', 'toolu_big.txt'),
      persistedOutputTruncated: true,
    });
    expect(gone!.text).toContain('<persisted-output>');
    expect(gone!.meta).toMatchObject({ persistedOutputMissing: true });

    const sub = parse([resultLine('toolu_small')], join(slug, SID, 'subagents', 'agent-abc.jsonl'));
    expect(sub.messages[0]!.blocks[0]).toMatchObject({
      text: 'all of it',
      meta: { persistedOutputPath: join(slug, SID, 'tool-results', 'toolu_small.txt') },
    });
  });

  it('reads no sidecar that is a symlink, sits behind a symlinked folder, or is a FIFO (which would block)', () => {
    const slug = join(dir, '-links');
    const outside = join(dir, 'outside');
    mkdirSync(join(slug, SID, 'tool-results'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), 'root:x:0:0:root');
    symlinkSync(join(outside, 'secret.txt'), join(slug, SID, 'tool-results', 'toolu_link.txt'));
    execFileSync('mkfifo', [join(slug, SID, 'tool-results', 'toolu_fifo.txt')]);
    const sub = join(dir, '-subs');
    mkdirSync(join(sub, SID, 'subagents'), { recursive: true });
    symlinkSync(outside, join(sub, SID, 'tool-results'));
    writeFileSync(join(outside, 'toolu_dir.txt'), 'root:x:0:0:root');

    const main = parse([resultLine('toolu_link'), resultLine('toolu_fifo')], join(slug, `${SID}.jsonl`));
    const viaDir = parse([resultLine('toolu_dir')], join(sub, SID, 'subagents', 'agent-x.jsonl'));
    for (const block of [...main.messages, ...viaDir.messages].map((m) => m.blocks[0]!)) {
      expect(block.text).toContain('<persisted-output>');
      expect(block.text).not.toContain('root:x');
      expect(block.meta).toMatchObject({ persistedOutputMissing: true });
    }
  });

  it('never follows a path outside the tool-results folder', () => {
    const evil = user('r1', [
      {
        type: 'tool_result',
        tool_use_id: 't',
        content: '<persisted-output>saved to: ../../../../etc/passwd</persisted-output>',
      },
    ]);
    const out = parse([evil], join(dir, '-w', `${SID}.jsonl`));
    expect(out.messages[0]!.blocks[0]!.text).toContain('<persisted-output>');
  });
});
