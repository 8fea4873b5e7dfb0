// Real SpecStory exports (test/fixtures/real-extra/specstory: April 2025, and Markdown v2.1.0 from Cursor
// and Claude Code in 2026), every count recomputed here from the raw Markdown: turns by role (empty ones
// left out), tool uses, the title and the project folder.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_EXTRA } from '../../../test/support/paths.js';
import { specstoryAdapter } from './index.js';
import { parseSpecStoryFile } from './parser.js';

const ROOT = join(REAL_EXTRA, 'specstory');
const FILES = specstoryAdapter.discover(ROOT);

function recount(path: string) {
  const text = readFileSync(path, 'utf8');
  // Tool outputs may print other exports: their turn lines are not turns of this one.
  const outside = text.replace(/<tool-use\b[\s\S]*?<\/tool-use>/g, '<tool-use>');
  const parts = outside.split(/^_\*\*(User|Assistant|Agent)[^\n]*\*\*_$/m);
  const turns: { role: string; body: string }[] = [];
  for (let i = 1; i < parts.length; i += 2) turns.push({ role: parts[i] as string, body: parts[i + 1] ?? '' });
  const nonEmpty = turns.filter((t) => t.body.replace(/^\s*---\s*$/gm, '').trim() !== '');
  return {
    user: nonEmpty.filter((t) => t.role === 'User').length,
    assistant: nonEmpty.filter((t) => t.role !== 'User').length,
    toolUses: (text.match(/<tool-use\b/g) ?? []).length,
    title: /^# (.+?)(?: \(\d{4}-[^)]*\))?$/m.exec(text)?.[1],
  };
}

describe('SpecStory exports (real files)', () => {
  it('finds every export under its project', () => {
    expect(FILES).toHaveLength(4);
  });

  for (const file of FILES) {
    it(`parses ${file.slice(ROOT.length + 1)} with the counts of its Markdown`, () => {
      const expected = recount(file);
      const out = parseSpecStoryFile(file);
      expect(out.malformed).toEqual([]);
      expect(out.messages.filter((m) => m.role === 'user' && m.kind === 'prompt')).toHaveLength(expected.user);
      expect(out.messages.filter((m) => m.role === 'assistant')).toHaveLength(expected.assistant);
      expect(out.messages.flatMap((m) => m.blocks).filter((b) => b.kind === 'tool_call')).toHaveLength(
        expected.toolUses,
      );
      const [session] = out.sessions;
      expect(session?.title).toBe(expected.title);
      expect(session?.project).toBe(join(ROOT, file.slice(ROOT.length + 1).split('/')[0] as string));
      for (const m of out.messages) expect(Number.isNaN(Date.parse(m.timestamp ?? ''))).toBe(false);
    });
  }

  it('keeps the session id and the models of the 2026 format', () => {
    const file = FILES.find((f) => f.includes('work20260104')) as string;
    const out = parseSpecStoryFile(file);
    expect(out.sessions[0]?.key).toBe('17d2aa8a-d529-4cff-9a80-bc7697c468ad');
    expect(out.sessions[0]?.meta).toMatchObject({ editor: 'cursor', models: ['gpt-5.1-codex-max'] });
    expect(out.messages[0]?.timestamp).toBe('2026-01-03T14:51:00.000Z');
  });

  it('reads the early exports that open with `## SpecStory` and a locale time in the title', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-specstory-early-'));
    try {
      const history = join(dir, 'proj', '.specstory', 'history');
      mkdirSync(history, { recursive: true });
      const file = join(history, '修复边框.md');
      const text = [
        '## SpecStory',
        '',
        '## 修复边框 (2025/1/24 19:21:41)',
        '',
        '_**User**_',
        '',
        '边框显示不全',
        '',
        '---',
        '',
        '_**Assistant**_',
        '',
        '已修复：给 select 加上 `overflow-visible`。',
        '',
      ].join('\n');
      writeFileSync(file, text);
      expect(specstoryAdapter.detect(file, text)).toBe(true);
      const out = parseSpecStoryFile(file);
      expect(out.sessions[0]).toMatchObject({ key: '修复边框', title: '修复边框', project: join(dir, 'proj') });
      expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(out.messages[0]?.timestamp).toBe('2025-01-24T19:21:41.000Z');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // v2.1.0 closes tool blocks as `</details></tool-use>` and leaves fences open in thinking: every later
  // user turn used to fold into one assistant reply.
  it('keeps every user turn of v2.1.0 exports whose tool blocks close mid-line', () => {
    const relocation = FILES.find((f) => f.includes('relocation-business')) as string;
    const out = parseSpecStoryFile(relocation);
    const users = out.messages.filter((m) => m.role === 'user');
    expect(users.map((m) => [m.key, m.timestamp, m.blocks[0]?.text.split('\n')[0]])).toEqual([
      ['t:1', '2026-04-15T18:17:46.000Z', 'sort this aditional information in the source of truth/ Seguridad'],
      [
        't:7',
        '2026-04-15T18:24:19.000Z',
        'no es un cambio de nombre, nexa paraguay usa el servicio de lealtis con sus' +
          ' clientes ademas de ofrecer un servicio para comprad e tierras aca en paraguay',
      ],
    ]);
    const tools = out.messages.flatMap((m) => m.blocks).filter((b) => b.kind === 'tool_call');
    expect(tools.map((b) => b.toolName)).toEqual(['Bash', 'Write', 'Read', 'Grep', 'Edit', 'Read', 'Edit']);
    expect(tools[0]?.text).toMatch(/^Tool use: Bash/);
    // A Claude Code export leaves the command and the file out of the summary: they come from the block.
    expect(tools[0]?.text).toBe(
      'Tool use: Bash \u2022 ls "C:/Users/kyrian/Documents/02-Work/Relocation-Bussines/source-of-truth/"',
    );
    expect(tools[1]?.text).toMatch(/^Tool use: Write \u2022 C:\\Users\\kyrian\\.*\\branding-nombre-slogan\.md$/);
    expect(out.messages.every((m) => m.model === undefined || m.model === 'claude-opus-4-6')).toBe(true);

    const cursor = FILES.find((f) => f.includes('customer-financial-health')) as string;
    const prompts = parseSpecStoryFile(cursor).messages.filter((m) => m.role === 'user');
    expect(prompts[0]?.timestamp).toBe('2026-06-10T12:51:06.000Z');
    expect(prompts.map((m) => m.blocks[0]?.text.split('\n')[0])).toEqual([
      'This is AI session S003A: PRD template definition.',
      '/ac new branch doc/prd-template',
    ]);
  });

  it('reads the times of a Codex CLI export (v2.0.0), written with fractional seconds', () => {
    // The head of DanCard/cal-date-widget's export (origin in bench/fixtures/logbook-blind7/SOURCES.tsv).
    const dir = mkdtempSync(join(tmpdir(), 'strata-specstory-codex-'));
    try {
      const file = join(dir, '2025-12-05_01-37-59Z-weekly-widget.md');
      writeFileSync(
        file,
        '<!-- Generated by SpecStory, Markdown v2.0.0 -->\n\n# 2025-12-05 01:37:59.534Z\n\n' +
          '<!-- Codex CLI Session 019aec28-aac2-7d03-922e-a6d3b2a790fe (2025-12-05T01:37:59.534Z) -->\n\n' +
          '_**User (2025-12-05T01:38:39.912Z)**_\n\nweekly widget: For current day, events in the past should ' +
          'be limited to one row.\n\n---\n\n_**Agent (gpt-5.1-codex-max)**_\n\nPast events now take one row.\n',
      );
      const out = parseSpecStoryFile(file);
      expect(out.messages.map((m) => [m.role, m.timestamp])).toEqual([
        ['user', '2025-12-05T01:38:39.912Z'],
        ['assistant', '2025-12-05T01:38:39.912Z'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the time and model that end a v2.1 agent line (`Agent (deepseek-v4-pro 2026-05-05 08:06:47Z)`)', () => {
    // The head of AsabaRikka/ChatBot's export (origin in bench/fixtures/logbook-blind8/SOURCES.tsv).
    const dir = mkdtempSync(join(tmpdir(), 'strata-specstory-agent-time-'));
    try {
      const file = join(dir, '2026-05-05_08-06-44Z-chatgpt.md');
      writeFileSync(
        file,
        '<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n# 2026-05-05 08:06:44Z\n\n' +
          '<!-- Claude Code Session 63b9ae13-488d-4f30-a0d2-abec0b1b6f81 (2026-05-05 08:06:44Z) -->\n\n' +
          '_**User (2026-05-05 08:06:44Z)**_\n\n我现在想要开发一个类chatgpt的对话系统\n\n---\n\n' +
          '_**Agent (deepseek-v4-pro 2026-05-05 08:06:48Z)**_\n\nLet me first explore your current project.\n\n' +
          '_**Agent (deepseek-v4-pro 2026-05-05 08:07:11Z)**_\n\nThe directory is empty.\n',
      );
      const out = parseSpecStoryFile(file);
      expect(out.messages.map((m) => [m.role, m.timestamp, m.model])).toEqual([
        ['user', '2026-05-05T08:06:44.000Z', undefined],
        ['assistant', '2026-05-05T08:06:48.000Z', 'deepseek-v4-pro'],
        ['assistant', '2026-05-05T08:07:11.000Z', 'deepseek-v4-pro'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the keys and content of earlier turns when the export grows', () => {
    const file = FILES.find((f) => f.includes('relocation-business')) as string;
    const text = readFileSync(file, 'utf8');
    const dir = mkdtempSync(join(tmpdir(), 'strata-specstory-grow-'));
    try {
      const early = join(dir, basename(file));
      writeFileSync(early, text.slice(0, text.indexOf('_**User (2026-04-15 18:24:19Z)**_')));
      const before = parseSpecStoryFile(early).messages;
      const after = new Map(parseSpecStoryFile(file).messages.map((m) => [m.key, m]));
      expect(before.length).toBeGreaterThan(1);
      for (const m of before) expect(after.get(m.key)).toEqual(m);
      expect(after.size).toBeGreaterThan(before.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
