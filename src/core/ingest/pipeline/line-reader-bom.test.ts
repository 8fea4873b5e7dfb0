import { describe, expect, it } from 'vitest';
import { readCompleteLines, type NextChunk } from './line-reader.js';
import type { LineRecord } from '../../../sources/types.js';

function chunks(...parts: Buffer[]): NextChunk {
  let i = 0;
  return () => parts[i++];
}

function linesOf(next: NextChunk, offset = 0): LineRecord[] {
  const out: LineRecord[] = [];
  readCompleteLines(next, offset, 0, (b) => out.push(...b.lines));
  return out;
}

describe('readCompleteLines and a UTF-8 byte order mark', () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  it('drops the BOM of the first line, so line 1 parses (with LF, CRLF, or no final newline)', () => {
    expect(linesOf(chunks(Buffer.concat([bom, Buffer.from('{"a":1}\n{"b":2}\n')])))).toEqual([
      { text: '{"a":1}', line: 1 },
      { text: '{"b":2}', line: 2 },
    ]);
    expect(linesOf(chunks(Buffer.concat([bom, Buffer.from('{"a":1}\r\n')])))).toEqual([{ text: '{"a":1}', line: 1 }]);
    expect(linesOf(chunks(Buffer.concat([bom, Buffer.from('{"a":1}')])))).toEqual([{ text: '{"a":1}', line: 1 }]);
  });

  it('keeps a U+FEFF that is not at the start of the file', () => {
    const lines = linesOf(chunks(Buffer.concat([Buffer.from('{"a":1}\n'), bom, Buffer.from('x\n')])));
    expect(lines[1]!.text).toBe('\ufeffx');
    expect(linesOf(chunks(Buffer.concat([bom, Buffer.from('y\n')])), 100)[0]!.text).toBe('\ufeffy');
  });
});
