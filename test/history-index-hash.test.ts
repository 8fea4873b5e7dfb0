// AC 4 (HashCalculator): SHA-256 over prompt id, content and response content with whitespace
// normalized; stable per prompt, segment and branch; detectChanges → added / modified / removed.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { finalizeHistory, HashCalculator, type ParsedPrompt } from '../src/core/history-index/index.js';

const prompt = (id: string, content: string, reply: string | null): ParsedPrompt => ({
  id, branchId: 'b', parentId: null, content, timestamp: 1, response: reply === null ? null : { content: reply, sessionId: 's', cost: 0, turns: 1, duration: 0, timestamp: 2 }, children: [], depth: 0,
});

describe('HashCalculator', () => {
  it('is the SHA-256 of id, normalized content and normalized response', () => {
    const expected = createHash('sha256').update('p1\u0000hello world\u0000ok then').digest('hex');
    expect(HashCalculator.hashPrompt(prompt('p1', '  hello\n\n world ', 'ok\tthen'))).toBe(expected);
  });

  it('is stable under whitespace changes and metadata, and changes with id, content or response', () => {
    const base = HashCalculator.hashPrompt(prompt('p1', 'a b', 'c'));
    expect(HashCalculator.hashPrompt({ ...prompt('p1', 'a\n b ', ' c'), timestamp: 99, depth: 3 })).toBe(base);
    expect(HashCalculator.hashPrompt(prompt('p2', 'a b', 'c'))).not.toBe(base);
    expect(HashCalculator.hashPrompt(prompt('p1', 'a c', 'c'))).not.toBe(base);
    expect(HashCalculator.hashPrompt(prompt('p1', 'a b', 'd'))).not.toBe(base);
    expect(HashCalculator.hashPrompt(prompt('p1', 'a b', null))).toBe(HashCalculator.hashPrompt(prompt('p1', 'a b', '')));
  });

  it('hashes segments and branches from their prompts, in order', () => {
    const ps = [prompt('a', 'one', 'r1'), prompt('b', 'two', 'r2')];
    const h = finalizeHistory(ps, ['b'], new Map(), [], { kind: 'puffin-file', path: 'x', contentHash: '' });
    const seg = HashCalculator.hashSegment({ promptIds: ['a', 'b'], overlapPromptIds: [] }, h);
    expect(seg).toMatch(/^[0-9a-f]{64}$/);
    expect(HashCalculator.hashSegment({ promptIds: ['a', 'b'], overlapPromptIds: [] }, h, HashCalculator.hashHistory(h))).toBe(seg);
    expect(HashCalculator.hashSegment({ promptIds: ['b', 'a'], overlapPromptIds: [] }, h)).not.toBe(seg);
    expect(HashCalculator.hashSegment({ promptIds: ['b'], overlapPromptIds: ['a'] }, h)).not.toBe(HashCalculator.hashSegment({ promptIds: ['b'], overlapPromptIds: [] }, h));
    expect(HashCalculator.hashBranch('b', ps)).toBe(HashCalculator.hashBranch('b', [prompt('a', ' one ', 'r1'), prompt('b', 'two', 'r2 ')]));
    expect(HashCalculator.hashBranch('b', ps)).not.toBe(HashCalculator.hashBranch('c', ps));
  });

  it('detectChanges reports added, modified and removed ids', () => {
    const old = new Map([['a', '1'], ['b', '2'], ['c', '3']]);
    const now = new Map([['a', '1'], ['b', '20'], ['d', '4']]);
    expect(HashCalculator.detectChanges(old, now)).toEqual({ added: ['d'], modified: ['b'], removed: ['c'] });
    expect(HashCalculator.detectChanges(old, old)).toEqual({ added: [], modified: [], removed: [] });
  });
});
