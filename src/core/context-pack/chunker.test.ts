import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from './chunker.js';
import { splitLines } from './markdown-lines.js';
import { countChars } from './text-utils.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/real/markdown');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const abs = join(dir, name);
      return statSync(abs).isDirectory() ? markdownFiles(abs) : name.endsWith('.md') ? [abs] : [];
    });
}

/** Independent oracle: 1-based [open, close] line ranges of CommonMark fences, front matter skipped. */
function fenceRanges(lines: string[]): { open: number; close: number; chars: number }[] {
  const ranges: { open: number; close: number; chars: number }[] = [];
  let i = 0;
  if (/^---\s*$/.test(lines[0] ?? '')) {
    const end = lines.findIndex((l, k) => k > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (end > 0) i = end + 1;
  }
  for (; i < lines.length; i++) {
    const m = /^ {0,3}(`{3,}|~{3,})([^`]*|~.*)$/.exec(lines[i] ?? '');
    if (!m) continue;
    const marker = m[1] ?? '';
    let j = i + 1;
    while (j < lines.length) {
      const c = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j] ?? '');
      if (c && c[1]?.[0] === marker[0] && (c[1]?.length ?? 0) >= marker.length) break;
      j++;
    }
    const close = Math.min(j, lines.length - 1);
    ranges.push({ open: i + 1, close: close + 1, chars: countChars(lines.slice(i, close + 1).join('\n')) });
    i = close;
  }
  return ranges;
}

const files = markdownFiles(FIXTURES);

describe('chunkMarkdown on the real SKILL.md / CLAUDE.md / AGENTS.md fixtures', () => {
  it('finds the fixtures', () => {
    expect(files.length).toBeGreaterThanOrEqual(16);
  });

  for (const maxChars of [6000, 700]) {
    it.each(files.map((f) => [relative(FIXTURES, f), f]))(
      `max_chars ${maxChars}: %s has no chunk boundary inside a fence`,
      (_name, file) => {
        const source = readFileSync(file as string, 'utf8');
        const lines = splitLines(source);
        const chunks = chunkMarkdown(source, { maxChars });
        let previousEnd = 0;
        for (const c of chunks) {
          // Chunks are in order, disjoint, and their text is exactly their source lines, apart from
          // the fence lines that reopen or close a fence cut between chunks.
          expect(c.start_line).toBeGreaterThan(previousEnd);
          const exact = lines.slice(c.start_line - 1, c.end_line).join('\n');
          const reopened = /^ *(`{3,}|~{3,})[^\n]*\n/.exec(c.text)?.[0] ?? '';
          const closed = /\n *(`{3,}|~{3,})$/.exec(c.text)?.[0] ?? '';
          expect([
            c.text,
            c.text.slice(reopened.length),
            c.text.slice(0, c.text.length - closed.length),
            c.text.slice(reopened.length, c.text.length - closed.length),
          ]).toContain(exact);
          previousEnd = c.end_line;
          const single = c.start_line === c.end_line;
          if (!single) expect(countChars(c.text)).toBeLessThanOrEqual(maxChars);
        }
        for (const f of fenceRanges(lines)) {
          if (f.chars > maxChars) continue; // only a fence longer than max_chars may be cut
          for (const c of chunks) {
            const startsInside = c.start_line > f.open && c.start_line <= f.close;
            const endsInside = c.end_line >= f.open && c.end_line < f.close;
            expect(startsInside || endsInside, `${c.start_line}-${c.end_line} cuts fence ${f.open}-${f.close}`).toBe(
              false,
            );
          }
        }
        // Every non-blank line is in a chunk, except folded heading-only parents.
        const covered = new Set(
          chunks.flatMap((c) => Array.from({ length: c.end_line - c.start_line + 1 }, (_, k) => c.start_line + k)),
        );
        lines.forEach((line, k) => {
          if (line.trim() && !covered.has(k + 1)) expect(line, `line ${k + 1} lost`).toMatch(/^ {0,3}#{1,6}\s/);
        });
      },
    );
  }

  it('keeps the nested 4-backtick fence of writing-plans/SKILL.md in one chunk', () => {
    const source = readFileSync(join(FIXTURES, 'skills/obra-superpowers/skills/writing-plans/SKILL.md'), 'utf8');
    const chunks = chunkMarkdown(source, { maxChars: 6000 });
    const task = chunks.find((c) => c.title_path.join('/') === 'Writing Plans/Task Structure');
    expect(task).toMatchObject({ start_line: 79, end_line: 126, heading_level: 2 });
    expect(task?.text).toContain('### Task N: [Component Name]');
    // The "# ..." and "### Task N" lines inside the fences never start a chunk.
    expect(chunks.some((c) => c.title_path.some((t) => t.startsWith('Task N') || t.includes('Feature Name')))).toBe(
      false,
    );
    expect(chunks[0]).toMatchObject({ title_path: [], heading_level: 0, start_line: 1, end_line: 4 });
    expect(chunks[0]?.text.startsWith('---\nname: writing-plans')).toBe(true);
  });
  it('keeps the # comments of the Chinese CLAUDE.md bash fence inside the 构建与运行命令 chunk', () => {
    const source = readFileSync(join(FIXTURES, 'agent-docs/Akai0301+nl2sql-langgraph/CLAUDE.md'), 'utf8');
    const chunks = chunkMarkdown(source, { maxChars: 6000 });
    const build = chunks.find((c) => c.title_path.join('/') === 'CLAUDE.md/构建与运行命令');
    expect(build?.start_line).toBe(5);
    expect(build?.text).toContain('# 安装后端依赖');
    expect(build?.text).toContain('# 初始化 pgvector 向量字段（用于混合检索）');
    expect(chunks.some((c) => c.title_path.some((t) => t.startsWith('安装') || t.startsWith('初始化')))).toBe(false);
  });

  it('the fence oracle sees the nested fences of writing-plans/SKILL.md', () => {
    const lines = splitLines(
      readFileSync(join(FIXTURES, 'skills/obra-superpowers/skills/writing-plans/SKILL.md'), 'utf8'),
    );
    expect(fenceRanges(lines).map((f) => [f.open, f.close])).toEqual([
      [58, 77],
      [81, 126],
    ]);
  });
});

describe('chunkMarkdown edge cases', () => {
  it('returns no chunks for an empty or blank document', () => {
    expect(chunkMarkdown('', { maxChars: 6000 })).toEqual([]);
    expect(chunkMarkdown('\n  \n\n', { maxChars: 6000 })).toEqual([]);
  });

  it('makes a document without headings one level-0 chunk', () => {
    const chunks = chunkMarkdown('\nFirst paragraph.\n\nSecond paragraph.\n', { maxChars: 6000 });
    expect(chunks).toEqual([
      {
        title_path: [],
        heading_level: 0,
        start_line: 2,
        end_line: 4,
        text: 'First paragraph.\n\nSecond paragraph.',
        body: 'First paragraph.\n\nSecond paragraph.',
      },
    ]);
  });

  it('gives CRLF input the same chunks and line numbers as LF input', () => {
    const lf = '# Title\n\nIntro text.\n\n## Setup\n\n```sh\n# not a heading\n```\n';
    expect(chunkMarkdown(lf.replace(/\n/g, '\r\n'), { maxChars: 6000 })).toEqual(chunkMarkdown(lf, { maxChars: 6000 }));
    expect(chunkMarkdown(lf, { maxChars: 6000 }).map((c) => [c.title_path, c.start_line, c.end_line])).toEqual([
      [['Title'], 1, 3],
      [['Title', 'Setup'], 5, 9],
    ]);
  });

  it('keeps CJK titles and counts CJK characters as code points', () => {
    const md = '# 概要\n\n日本語のテキスト。𠮷野家\n\n## 使い方\n\n中文内容';
    const chunks = chunkMarkdown(md, { maxChars: 6000 });
    expect(chunks.map((c) => c.title_path)).toEqual([['概要'], ['概要', '使い方']]);
    expect(countChars(chunks[0]?.body ?? '')).toBe('\n日本語のテキスト。𠮷野家'.length - 1);
  });

  it('splits a long section at paragraph boundaries, keeping the title path', () => {
    const para = (n: number): string => `Paragraph ${n} ` + 'word '.repeat(40).trim();
    const md = ['## Long', '', para(1), '', para(2), '', para(3), '', para(4)].join('\n');
    const chunks = chunkMarkdown(md, { maxChars: 450 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.title_path).toEqual(['Long']);
      expect(countChars(c.text)).toBeLessThanOrEqual(450);
      expect(c.text.startsWith('Paragraph') || c.text.startsWith('## Long')).toBe(true);
    }
  });

  it('never cuts a fence that fits, but cuts one longer than max_chars between lines', () => {
    const fence = ['```', ...Array.from({ length: 30 }, (_, i) => `line ${i} of code`), '```'];
    const md = ['## Code', 'Before.', ...fence, 'After.'].join('\n');
    const fits = chunkMarkdown(md, { maxChars: 600 });
    expect(fits.some((c) => c.text.includes('```\nline 0') && c.text.includes('line 29 of code\n```'))).toBe(true);
    const cut = chunkMarkdown(md, { maxChars: 200 });
    expect(cut.length).toBeGreaterThan(2);
    expect(cut.every((c) => countChars(c.text) <= 200)).toBe(true);
  });

  it('folds a heading-only parent into its subsections but keeps a heading-only leaf', () => {
    const chunks = chunkMarkdown('# Parent\n\n## Child\n\ntext\n\n## Empty leaf\n', { maxChars: 6000 });
    expect(chunks.map((c) => c.title_path)).toEqual([
      ['Parent', 'Child'],
      ['Parent', 'Empty leaf'],
    ]);
  });
});
