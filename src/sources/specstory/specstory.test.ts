// Real SpecStory exports (test/fixtures/real-extra/specstory: April 2025 and the January 2026 Markdown
// v2.1.0 format), every count recomputed here from the raw Markdown: turns by role (empty ones left
// out), tool uses, the title and the project folder.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  it('finds both exports under their projects', () => {
    expect(FILES).toHaveLength(2);
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
});
