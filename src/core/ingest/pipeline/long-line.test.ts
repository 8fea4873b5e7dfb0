import { describe, expect, it } from 'vitest';
import { readCompleteLines, type NextChunk } from './line-reader.js';
import { cutNote, LineShrinker, LONG_LINE_BYTES, STRING_KEEP_BYTES } from '../../../shared/long-json.js';
import type { LineRecord } from '../../../sources/types.js';

/** `bytes` in chunks of varying sizes (a cut must not depend on where chunks end). */
function chunked(bytes: Buffer): NextChunk {
  let at = 0;
  let size = 7;
  return () => {
    if (at >= bytes.length) return undefined;
    size = (size * 31 + 17) % (512 * 1024);
    const chunk = bytes.subarray(at, at + size + 1);
    at += chunk.length;
    return chunk;
  };
}

function read(bytes: Buffer): { lines: LineRecord[]; endOffset: number } {
  const lines: LineRecord[] = [];
  const end = readCompleteLines(chunked(bytes), 0, 0, (b) => lines.push(...b.lines));
  return { lines, endOffset: end.endOffset };
}

// Escapes, a \u escape, two- and three-byte characters: a cut at any byte would break one of them.
const PIECE = 'line é 漢 "q" \\ \u0001\n';

describe('a line longer than LONG_LINE_BYTES', () => {
  it('keeps every line, its long strings cut at a character with a note; short strings and lines whole', () => {
    const long = PIECE.repeat(Math.ceil((LONG_LINE_BYTES * 1.3) / PIECE.length));
    const record = { type: 'user', before: 'short é', content: long, after: 'end' };
    const text = `{"a":1}\n${JSON.stringify(record)}\r\n{"b":2}\n`;
    const bytes = Buffer.from(text);
    const { lines, endOffset } = read(bytes);
    expect(endOffset).toBe(bytes.length);
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3]);
    expect(lines[0]!.text).toBe('{"a":1}');
    expect(lines[2]!.text).toBe('{"b":2}');
    const kept = JSON.parse(lines[1]!.text) as typeof record;
    expect(kept.before).toBe('short é');
    expect(kept.after).toBe('end');
    const note = / …\[strata: ([\d,]+) more bytes of this text were not stored; the whole text is line 2 of/;
    expect(kept.content).toMatch(note);
    const prefix = kept.content.slice(0, kept.content.indexOf(' …[strata:'));
    expect(long.startsWith(prefix)).toBe(true);
    const keptJson = Buffer.byteLength(JSON.stringify(prefix)) - 2;
    expect(keptJson).toBeGreaterThanOrEqual(STRING_KEEP_BYTES);
    expect(keptJson).toBeLessThan(STRING_KEEP_BYTES + 8);
    const left = Number(note.exec(kept.content)![1]!.replace(/,/g, ''));
    expect(keptJson + left).toBe(Buffer.byteLength(JSON.stringify(long)) - 2);
  });

  it('a line of many long strings keeps 4 KB of each once the kept line is long', () => {
    const value = 'x'.repeat(5 * 1024 * 1024);
    const line = JSON.stringify({ parts: Array.from({ length: 8 }, () => value) });
    const { lines } = read(Buffer.from(`${line}\n`));
    const kept = JSON.parse(lines[0]!.text) as { parts: string[] };
    expect(kept.parts).toHaveLength(8);
    expect(lines[0]!.text.length).toBeLessThan(LONG_LINE_BYTES + 6 * 4096 + 8 * 200);
    expect(kept.parts.at(-1)!.startsWith(`${'x'.repeat(4096)} …[strata:`)).toBe(true);
  });

  it('an unfinished long line at the end of the file is left for the next run', () => {
    const line = JSON.stringify({ content: 'y'.repeat(LONG_LINE_BYTES + 10) });
    const bytes = Buffer.from(`{"a":1}\n${line.slice(0, -5)}`);
    const { lines, endOffset } = read(bytes);
    expect(lines).toHaveLength(1);
    expect(endOffset).toBe(8);
  });

  it('the note is valid inside a JSON string', () => {
    expect(JSON.parse(`"${cutNote(1234567, 'line 9 of the source file')}"`)).toBe(
      cutNote(1234567, 'line 9 of the source file'),
    );
    const shrinker = new LineShrinker('the source file');
    shrinker.push(Buffer.from('{"k":"v"}'));
    expect(shrinker.finish().toString()).toBe('{"k":"v"}');
  });
});
