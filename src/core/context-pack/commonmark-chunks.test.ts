// Chunks checked against a CommonMark parser (markdown-it): on the real Markdown fixtures every chunk
// has balanced fences and starts no section at a line the parser does not call a heading.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from './chunker.js';
import { splitLines, frontMatterLength } from './markdown-lines.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/real/markdown');
const md = new MarkdownIt('commonmark');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith('.md') ? [path] : [];
  });
}

/** Fences markdown-it sees in `text` that run to the end without a closing fence line. */
function unclosedFences(text: string): number {
  const lines = text.split('\n');
  return md.parse(text, {}).filter((t) => {
    if (t.type !== 'fence' || !t.map) return false;
    const last = lines[t.map[1] - 1] ?? '';
    const closer = /^\s*(`{3,}|~{3,})\s*$/.exec(last)?.[1] ?? '';
    return t.map[1] - t.map[0] < 2 || closer[0] !== t.markup[0] || closer.length < t.markup.length;
  }).length;
}

/** 1-based lines markdown-it parses as top-level headings (after the front matter). */
function headingLines(source: string): Set<number> {
  const lines = splitLines(source);
  const fm = frontMatterLength(lines);
  const tokens = md.parse(lines.slice(fm).join('\n'), {});
  return new Set(
    tokens.filter((t) => t.type === 'heading_open' && t.level === 0 && t.map).map((t) => t.map![0] + fm + 1),
  );
}

describe('chunks against markdown-it on the real Markdown', () => {
  const files = markdownFiles(FIXTURES);
  for (const maxChars of [300, 700, 6000]) {
    it.each(files.map((f) => [relative(FIXTURES, f), f]))(`max_chars ${maxChars}: %s`, (_name, file) => {
      const source = readFileSync(file as string, 'utf8');
      const sourceUnclosed = unclosedFences(splitLines(source).join('\n'));
      const headings = headingLines(source);
      for (const c of chunkMarkdown(source, { maxChars })) {
        if (sourceUnclosed === 0) expect(unclosedFences(c.text), `${c.start_line}-${c.end_line}`).toBe(0);
        if (c.heading_level > 0 && c.start_line === c.end_line - (c.text.split('\n').length - 1)) {
          expect(headings.has(c.start_line) || !/^\s*#/.test(c.text), `chunk at ${c.start_line}`).toBe(true);
        }
      }
    });
  }
});

describe('fences and HTML blocks', () => {
  it('closes and reopens a fence longer than max_chars with its info string', () => {
    const body = Array.from({ length: 60 }, (_, i) => `echo step ${i}`).join('\n');
    const source = `# Run\n\n\`\`\`bash title="run.sh"\n${body}\n\`\`\`\n`;
    const chunks = chunkMarkdown(source, { maxChars: 300 });
    expect(chunks.length).toBeGreaterThan(2);
    const pieces = chunks.filter((c) => c.text.includes('echo step'));
    expect(pieces.length).toBeGreaterThan(2);
    for (const c of pieces) {
      expect(unclosedFences(c.text)).toBe(0);
      expect(c.text.length).toBeLessThanOrEqual(300);
      expect(c.text).toContain('```bash title="run.sh"');
    }
  });

  it('recognises a fence indented inside a list item and does not split it at its blank line', () => {
    const item = Array.from({ length: 8 }, (_, i) => `     line ${i} of the script`).join('\n');
    const intro = 'This paragraph explains the setup in enough words to take room. '.repeat(3);
    const source =
      `# Steps\n\n${intro}\n\n10. Install:\n\n     \`\`\`sh\n${item}\n\n${item}\n     \`\`\`\n\n11. ` + `Done.\n`;
    const chunks = chunkMarkdown(source, { maxChars: 600 });
    expect(chunks.length).toBeGreaterThan(1);
    const fenceChunk = chunks.find((c) => c.text.includes('line 0 of the script'))!;
    expect(fenceChunk.text).toContain('```sh');
    expect(fenceChunk.text.match(/line 7 of the script/g)).toHaveLength(2);
  });

  it('does not start a section at "# line" inside <pre>', () => {
    const source = '# Real\n\n<pre>\n# not a heading\nkeep\n</pre>\n\n## Next\n\ntext\n';
    const chunks = chunkMarkdown(source, { maxChars: 6000 });
    expect(chunks.map((c) => c.title_path.join('/'))).toEqual(['Real', 'Real/Next']);
  });
});
