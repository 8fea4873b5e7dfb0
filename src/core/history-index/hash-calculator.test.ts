// Content hashes: SHA-256 over prompt id, content and response content with whitespace
// normalized; stable per prompt, segment and branch; detectChanges → added / modified / removed.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  detectChanges,
  finalizeHistory,
  hashBranch,
  hashHistory,
  hashPrompt,
  hashSegment,
  type ParsedPrompt,
} from './index.js';

const prompt = (id: string, content: string, reply: string | null): ParsedPrompt => ({
  id,
  branchId: 'b',
  parentId: null,
  content,
  timestamp: 1,
  response: reply === null ? null : { content: reply, sessionId: 's', cost: 0, turns: 1, duration: 0, timestamp: 2 },
  children: [],
  depth: 0,
});

describe('content hashes', () => {
  it('is the SHA-256 of id, normalized content and normalized response', () => {
    const expected = createHash('sha256').update('p1\u0000hello world\u0000ok then').digest('hex');
    expect(hashPrompt(prompt('p1', '  hello\n\n world ', 'ok\tthen'))).toBe(expected);
  });

  it('is stable under whitespace changes and metadata, and changes with id, content or response', () => {
    const base = hashPrompt(prompt('p1', 'a b', 'c'));
    expect(hashPrompt({ ...prompt('p1', 'a\n b ', ' c'), timestamp: 99, depth: 3 })).toBe(base);
    expect(hashPrompt(prompt('p2', 'a b', 'c'))).not.toBe(base);
    expect(hashPrompt(prompt('p1', 'a c', 'c'))).not.toBe(base);
    expect(hashPrompt(prompt('p1', 'a b', 'd'))).not.toBe(base);
    expect(hashPrompt(prompt('p1', 'a b', null))).toBe(hashPrompt(prompt('p1', 'a b', '')));
  });

  it('hashes segments and branches from their prompts, in order', () => {
    const ps = [prompt('a', 'one', 'r1'), prompt('b', 'two', 'r2')];
    const h = finalizeHistory(ps, ['b'], new Map(), [], { kind: 'puffin-file', path: 'x', contentHash: '' });
    const seg = hashSegment({ promptIds: ['a', 'b'], overlapPromptIds: [] }, h);
    expect(seg).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSegment({ promptIds: ['a', 'b'], overlapPromptIds: [] }, h, hashHistory(h))).toBe(seg);
    expect(hashSegment({ promptIds: ['b', 'a'], overlapPromptIds: [] }, h)).not.toBe(seg);
    expect(hashSegment({ promptIds: ['b'], overlapPromptIds: ['a'] }, h)).not.toBe(
      hashSegment({ promptIds: ['b'], overlapPromptIds: [] }, h),
    );
    expect(hashBranch('b', ps)).toBe(hashBranch('b', [prompt('a', ' one ', 'r1'), prompt('b', 'two', 'r2 ')]));
    expect(hashBranch('b', ps)).not.toBe(hashBranch('c', ps));
  });

  it('detectChanges reports added, modified and removed ids', () => {
    const old = new Map([
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
    ]);
    const now = new Map([
      ['a', '1'],
      ['b', '20'],
      ['d', '4'],
    ]);
    expect(detectChanges(old, now)).toEqual({ added: ['d'], modified: ['b'], removed: ['c'] });
    expect(detectChanges(old, old)).toEqual({ added: [], modified: [], removed: [] });
  });
});
