import { describe, expect, it } from 'vitest';
import { countChars, oneLine, preview, truncateChars } from './text-utils.js';

/** The spec's reference: re.sub(r"\s+", " ", text.strip()) then cut at max code points plus "…". */
function referencePreview(text: string, max = 180): string {
  const points = Array.from(oneLine(text));
  return points.slice(0, max).join('') + (points.length > max ? '…' : '');
}

describe('preview', () => {
  it('matches the spec reference on varied text', () => {
    const samples = [
      '',
      '   ',
      'short',
      '  lead and trail  \n',
      'a'.repeat(180),
      'a'.repeat(181),
      'word '.repeat(36) + 'x',
      'word '.repeat(35) + 'word',
      '\t\ttabs\r\n\r\nand  CRLF ' + 'z'.repeat(200),
      '日本語のテキスト。'.repeat(30),
      '𠮷'.repeat(179) + ' 𠮷𠮷',
      'emoji 😀 '.repeat(40),
      'nbsp\u00a0\u00a0here\u2003em space ' + 'y '.repeat(100),
    ];
    for (const s of samples) expect(preview(s), JSON.stringify(s.slice(0, 20))).toBe(referencePreview(s));
    for (const s of samples) expect(preview(s, 7)).toBe(referencePreview(s, 7));
  });

  it('counts code points, not UTF-16 units', () => {
    expect(countChars('a𠮷b')).toBe(3);
    expect(truncateChars('𠮷𠮷𠮷', 2)).toBe('𠮷𠮷…');
  });
});
