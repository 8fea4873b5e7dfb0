import { describe, expect, it } from 'vitest';
import { stringifyIteratively, stringifyJson } from './bounded-json.js';

function nested(depth: number): unknown {
  return JSON.parse('{"a":['.repeat(depth) + '"x"' + ']}'.repeat(depth));
}

describe('stringifyJson', () => {
  it('gives JSON.stringify output for ordinary values', () => {
    const values: unknown[] = [
      null,
      1,
      -0,
      1.5e300,
      'a"b\n\u2028',
      true,
      [],
      {},
      [1, 'x', null, [2, [3]], { b: { c: [] } }],
      { k: undefined, f: 1, n: Number.NaN, i: Number.POSITIVE_INFINITY, nested: { '': [true, false] }, 'q"k': 'v' },
      [undefined, () => 1],
      { only: undefined },
    ];
    for (const v of values) expect(stringifyIteratively(v)).toBe(JSON.stringify(v));
  });

  it('serializes a value nested 100,000 levels deep where JSON.stringify overflows the stack', () => {
    const deep = nested(100_000);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const text = stringifyJson(deep)!;
    expect(text === '{"a":['.repeat(100_000) + '"x"' + ']}'.repeat(100_000)).toBe(true);
  });
});
