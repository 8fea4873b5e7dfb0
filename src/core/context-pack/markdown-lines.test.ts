import { describe, expect, it } from 'vitest';
import { classifyLines, frontMatterLength, splitLines } from './markdown-lines.js';

const fenceFlags = (md: string): boolean[] => classifyLines(splitLines(md)).map((l) => l.inFence);
const headingLines = (md: string): number[] =>
  classifyLines(splitLines(md)).flatMap((l, i) => (l.heading ? [i + 1] : []));

describe('classifyLines: CommonMark fences', () => {
  it('treats ``` and ~~~ fences as opaque, including # lines inside', () => {
    const md = ['# A', '```bash', '# comment', '```', '~~~', '## not a heading', '~~~', '## B'].join('\n');
    expect(fenceFlags(md)).toEqual([false, true, true, true, true, true, true, false]);
    expect(headingLines(md)).toEqual([1, 8]);
  });

  it('closes a fence only with the same character and at least the opener length', () => {
    const md = ['````md', '```', '# inside', '~~~~', '````', '# after'].join('\n');
    expect(fenceFlags(md)).toEqual([true, true, true, true, true, false]);
    expect(headingLines(md)).toEqual([6]);
    const longer = ['~~~', '# in', '~~~~~', '# out'].join('\n');
    expect(headingLines(longer)).toEqual([4]);
  });

  it('lets a 4-backtick fence wrap 3-backtick fences', () => {
    const md = ['````markdown', '# Plan', '```python', 'x = 1', '```', '## Step', '````', '## Real'].join('\n');
    expect(headingLines(md)).toEqual([8]);
    expect(fenceFlags(md).slice(0, 7).every(Boolean)).toBe(true);
  });

  it('allows up to three spaces of indentation, not four', () => {
    expect(fenceFlags(['   ```', '# x', '   ```'].join('\n'))).toEqual([true, true, true]);
    expect(headingLines(['    ```', '# x', '    ```'].join('\n'))).toEqual([2]);
  });

  it('rejects a backtick fence whose info string contains a backtick, and a closer with trailing text', () => {
    expect(headingLines(['```a`b', '# real'].join('\n'))).toEqual([2]);
    expect(headingLines(['```', '``` not a closer', '# inside', '```', '# out'].join('\n'))).toEqual([5]);
  });

  it('runs an unclosed fence to the end of the document', () => {
    expect(headingLines(['# A', '```', '# B', '## C'].join('\n'))).toEqual([1]);
  });
});

describe('classifyLines: headings and front matter', () => {
  it('parses ATX headings with closing hashes, and requires a space after #', () => {
    const info = classifyLines(['## Title ##', '#hashtag', '###### Six', '####### seven'].map(String));
    expect(info[0]?.heading).toEqual({ level: 2, title: 'Title', lines: 1 });
    expect(info[1]?.heading).toBeUndefined();
    expect(info[2]?.heading?.level).toBe(6);
    expect(info[3]?.heading).toBeUndefined();
  });

  it('recognises one-line setext headings but not thematic breaks or list items', () => {
    const info = classifyLines(['Title', '=====', '', 'Sub', '---', '', '---', '- item', '---'].map(String));
    expect(info[0]?.heading).toEqual({ level: 1, title: 'Title', lines: 2 });
    expect(info[3]?.heading).toEqual({ level: 2, title: 'Sub', lines: 2 });
    expect(info.filter((l) => l.heading)).toHaveLength(2);
  });

  it('skips YAML front matter, whose # comments are not headings', () => {
    const lines = splitLines(['---', 'name: x', '# yaml comment', '---', '# Real'].join('\n'));
    expect(frontMatterLength(lines)).toBe(4);
    const info = classifyLines(lines);
    expect(info.slice(0, 4).every((l) => l.inFrontMatter)).toBe(true);
    expect(info.flatMap((l, i) => (l.heading ? [i] : []))).toEqual([4]);
  });

  it('does not treat an unclosed leading --- as front matter', () => {
    expect(frontMatterLength(splitLines('---\n# A\ntext'))).toBe(0);
  });

  it('splits LF, CRLF and CR line endings and drops a BOM', () => {
    expect(splitLines('\ufeffa\r\nb\rc\nd')).toEqual(['a', 'b', 'c', 'd']);
  });
});
