// Tests the Aider adapter on the real fixtures (counts computed here from the raw Markdown) and on
// synthetic histories: duplicate start times, appends, unclosed thinking, CRLF, the input log.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha1 } from '../../shared/hash.js';
import type { ParseOutput } from '../../shared/model.js';
import { aiderAdapter } from './index.js';
import { parseAiderHistory } from './parser.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/real/aider');
const CHAT_FILES = ['luvatrix/.aider.chat.history.md', 'aider-repo/tests/fixtures/chat-history.md'];

/** Counts computed straight from the Markdown, without the parser's state machine. */
function rawCounts(text: string) {
  const lines = text.split('\n');
  const headerAt = lines.flatMap((l, i) => (l.startsWith('# aider chat started at ') ? [i] : []));
  const bounds = [0, ...headerAt.map((i) => i + 1)];
  let sessions = 0;
  bounds.forEach((start, n) => {
    const end = n + 1 < bounds.length ? bounds[n + 1]! - 1 : lines.length;
    const body = lines.slice(start, end).filter((l) => l.trim() !== '' && !/^-\*- mode:.*-\*-\s*$/.test(l));
    if (body.length > 0) sessions++;
  });
  const isPrompt = (l: string | undefined) => l?.startsWith('####');
  const prompts = lines.filter((l, i) => isPrompt(l) && !isPrompt(lines[i - 1])).length;
  const outputLines = lines.filter((l) => l === '>' || l.startsWith('> ')).length;
  const thinking = lines.filter((l) => /^<thinking-content-\w+>\s*$/.test(l)).length;
  return { sessions, prompts, outputLines, thinking, emptySessions: bounds.length - sessions };
}

function blocksOf(out: ParseOutput, kind: string) {
  return out.messages.flatMap((m) => m.blocks).filter((b) => b.kind === kind);
}

describe('aider adapter on real fixtures', () => {
  for (const rel of CHAT_FILES) {
    it(`parses ${rel} with the expected counts`, async () => {
      const path = join(FIXTURES, rel);
      const raw = rawCounts(readFileSync(path, 'utf8'));
      const out = (await aiderAdapter.parseFile({ path })) as ParseOutput;
      expect(out.notSession).toBeUndefined();
      expect(out.malformed).toEqual([]);
      expect(out.sessions).toHaveLength(raw.sessions);
      expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(raw.prompts);
      expect(blocksOf(out, 'thinking')).toHaveLength(raw.thinking);
      expect(blocksOf(out, 'tool_call')).toHaveLength(0);
      const systemLines = blocksOf(out, 'system').reduce((n, b) => n + b.text.split('\n').length, 0);
      expect(systemLines).toBe(raw.outputLines);
      expect(new Set(out.sessions.map((s) => s.key)).size).toBe(out.sessions.length);
      for (const s of out.sessions) expect(s.project).toBe(dirname(path));
      const keys = out.messages.map((m) => `${m.sessionKey}/${m.key}`);
      expect(new Set(keys).size).toBe(keys.length);
    });
  }

  it('asserts the luvatrix numbers and metadata explicitly', () => {
    const path = join(FIXTURES, 'luvatrix/.aider.chat.history.md');
    const out = parseAiderHistory(readFileSync(path, 'utf8'), path);
    expect(out.sessions).toHaveLength(1);
    expect(out.messages.filter((m) => m.kind === 'prompt')).toHaveLength(17);
    expect(blocksOf(out, 'thinking')).toHaveLength(7);
    const session = out.sessions[0]!;
    expect(session.key).toBe(`${sha1(resolve(path)).slice(0, 12)}:2026-05-02 13:55:39`);
    expect(session.meta).toMatchObject({ model: 'openai/Qwen3.5-9B-Q8_0', aiderVersion: '0.86.2' });
    expect(session.title).toBe('Hello! Can you tell me what files are in this directory?"');
    const firstReply = out.messages.find((m) => m.kind === 'response')!;
    expect(firstReply.blocks.map((b) => b.kind)).toEqual(['thinking', 'text']);
    expect(firstReply.timestamp).toBe(new Date(2026, 4, 2, 13, 55, 39).toISOString());
  });

  it('counts the big fixture: content before the first header is its own session, empty sessions skipped', () => {
    const path = join(FIXTURES, 'aider-repo/tests/fixtures/chat-history.md');
    const out = parseAiderHistory(readFileSync(path, 'utf8'), path);
    const raw = rawCounts(readFileSync(path, 'utf8'));
    expect(out.sessions[0]?.key.endsWith(':head')).toBe(true);
    expect(out.skipped).toEqual({ mode_line: 1, empty_session: raw.emptySessions });
  });

  it('reports .aider.input.history as a prompt log, not a session', async () => {
    const out = (await aiderAdapter.parseFile({
      path: join(FIXTURES, 'luvatrix/.aider.input.history'),
    })) as ParseOutput;
    expect(out.notSession).toMatch(/prompt log/);
    expect(out.sessions).toEqual([]);
  });
});

const HISTORY = [
  '',
  '# aider chat started at 2025-01-02 10:00:00',
  '',
  '> Aider v0.80.0',
  '> Main model: claude-3-5-sonnet with diff edit format',
  '',
  '#### fix the bug  ',
  '#### in parser.ts  ',
  '',
  'Here is the fix.',
  '',
  '> quoted? no: aider output',
  '',
  '> Tokens: 1k sent, 100 received.',
  '',
  '# aider chat started at 2025-01-02 10:00:00',
  '',
  '#### /run npm test  ',
  '',
  '> 3 passing  ',
  '',
  '# aider chat started at 2025-01-03 09:00:00',
  '',
].join('\n');

describe('aider parsing rules', () => {
  it('splits sessions, merges consecutive prompt lines and suffixes duplicate start times', () => {
    const out = parseAiderHistory(HISTORY, '/p/.aider.chat.history.md');
    expect(out.sessions.map((s) => s.key.split(':').slice(1).join(':'))).toEqual([
      '2025-01-02 10:00:00',
      '2025-01-02 10:00:00#2',
    ]);
    expect(out.skipped).toEqual({ empty_session: 1 });
    const first = out.messages.filter((m) => m.sessionKey === out.sessions[0]!.key);
    expect(first.map((m) => [m.key, m.kind])).toEqual([
      ['L4', 'system'],
      ['L7', 'prompt'],
      ['L10', 'response'],
      ['L12', 'system'],
    ]);
    expect(first[1]!.blocks[0]!.text).toBe('fix the bug\nin parser.ts');
    expect(first[2]!.model).toBe('claude-3-5-sonnet');
    expect(first[3]!.blocks[0]!.text).toBe('quoted? no: aider output\nTokens: 1k sent, 100 received.');
    expect(out.sessions[0]!.project).toBe('/p');
  });

  it('keeps message keys stable when Aider appends to the file', () => {
    const before = parseAiderHistory(HISTORY, '/p/.aider.chat.history.md');
    const after = parseAiderHistory(HISTORY + '#### another prompt  \n\nanother reply\n', '/p/.aider.chat.history.md');
    const byKey = new Map(after.messages.map((m) => [`${m.sessionKey}/${m.key}`, m]));
    for (const m of before.messages) expect(byKey.get(`${m.sessionKey}/${m.key}`)).toEqual(m);
    expect(after.messages.length).toBe(before.messages.length + 2);
  });

  it('reports an unclosed thinking block (truncated file) and keeps its text', () => {
    const text =
      '# aider chat started at 2025-01-02 10:00:00\n\n#### hi\n\n<thinking-content-abc123>\n\npartial thoughts';
    const out = parseAiderHistory(text, '/p/.aider.chat.history.md');
    expect(out.malformed).toEqual([{ line: 5, reason: expect.stringMatching(/unclosed/) }]);
    expect(blocksOf(out, 'thinking').map((b) => b.text)).toEqual(['partial thoughts']);
  });

  it('handles CRLF files and files cut mid-prompt without crashing', () => {
    const crlf = HISTORY.replace(/\n/g, '\r\n');
    const out = parseAiderHistory(crlf, '/p/.aider.chat.history.md');
    expect(out.messages.filter((m) => m.kind === 'prompt').map((m) => m.blocks[0]!.text)).toEqual([
      'fix the bug\nin parser.ts',
      '/run npm test',
    ]);
    const cut = parseAiderHistory(HISTORY.slice(0, HISTORY.indexOf('in parser') + 4), '/p/.aider.chat.history.md');
    expect(cut.messages.at(-1)!.blocks[0]!.text).toBe('fix the bug\nin p');
  });

  it('returns notSession for Markdown that is not an Aider history, and for binary junk', () => {
    expect(parseAiderHistory('# Title\n\nSome notes.\n', '/p/notes.md').notSession).toMatch(/no Aider chat content/);
    expect(parseAiderHistory('\u0000\u0001\u0002garbage', '/p/x.md').notSession).toMatch(/no Aider chat content/);
  });
});

describe('aider paths', () => {
  it('reads STRATA_AIDER_PATHS and discovers histories up to 3 levels down, skipping node_modules', () => {
    expect(aiderAdapter.defaultRoots({ STRATA_AIDER_PATHS: '/a:/b' })).toEqual(['/a', '/b']);
    const root = mkdtempSync(join(tmpdir(), 'strata-aider-'));
    const put = (rel: string) => {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), '# aider chat started at 2025-01-01 00:00:00\n');
      return join(root, rel);
    };
    const top = put('.aider.chat.history.md');
    const deep = put('a/b/c/.aider.chat.history.md');
    put('a/b/c/d/.aider.chat.history.md');
    put('node_modules/x/.aider.chat.history.md');
    put('.aider.input.history');
    expect(aiderAdapter.discover(root)).toEqual([top, deep].sort());
  });

  it('detects chat histories by name or header, and claims the input log to report it', () => {
    expect(aiderAdapter.detect('/p/.aider.chat.history.md', '')).toBe(true);
    expect(aiderAdapter.detect('/p/.aider.input.history', '# 2025-01-01\n+hi')).toBe(true);
    expect(aiderAdapter.detect('/p/chat.md', '\n# aider chat started at 2025-01-01 00:00:00\n')).toBe(true);
    expect(aiderAdapter.detect('/p/README.md', '# Readme')).toBe(false);
  });
});
