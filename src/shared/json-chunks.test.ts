// jsonChunks joined is exactly JSON.stringify(value, null, indent), whatever the nesting.
import { describe, expect, it } from 'vitest';
import { jsonChunks } from './json-chunks.js';

const samples: unknown[] = [
  { a: 1, b: [1, 2, { c: 'x\ny', d: [] }], e: {}, f: undefined, g: null, h: [undefined, () => 1] },
  [],
  {},
  [[[]], { k: { deep: { deeper: [1, { z: 'a "quote" and \\ slash' }] } } }],
  { date: new Date(0), nested: { when: new Date(1) }, list: [new Date(2)] },
  'text',
  42,
  null,
  { 'key with\nnewline': { '': [true, false] }, unicode: 'héllo → ✓' },
];

describe('jsonChunks', () => {
  it.each(samples.map((s) => [s]))('joins to the same text as JSON.stringify (%#)', (value) => {
    for (const indent of [1, 2])
      for (const walkDepth of [0, 1, 2, 5])
        expect([...jsonChunks(value, indent, walkDepth)].join('')).toBe(JSON.stringify(value, null, indent));
  });
});
