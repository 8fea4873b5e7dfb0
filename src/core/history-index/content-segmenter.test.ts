// ContentSegmenter: maxTokensPerSegment (default 50,000), split at turn boundaries, overlap between parts
// of a split conversation, natural boundaries (whole conversations, never mixing branches), content-
// defined packing, token counts from the one tokenizer module.
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../shared/tokenizer.js';
import {
  ContentSegmenter,
  DEFAULT_SEGMENTATION,
  finalizeHistory,
  renderTurn,
  type ParsedHistory,
  type ParsedPrompt,
} from './index.js';

function history(branches: Record<string, Array<[id: string, parent: string | null, words: number]>>): ParsedHistory {
  const prompts: ParsedPrompt[] = [];
  let t = 1_700_000_000_000;
  for (const [branchId, list] of Object.entries(branches)) {
    for (const [id, parentId, words] of list) {
      t += 1000;
      prompts.push({
        id,
        branchId,
        parentId,
        content: `${id} ` + 'word '.repeat(words),
        timestamp: t,
        response: { content: `reply to ${id}`, sessionId: '', cost: 0, turns: 1, duration: 0, timestamp: t + 500 },
        children: [],
        depth: 0,
      });
    }
  }
  return finalizeHistory(prompts, Object.keys(branches), new Map(), [], {
    kind: 'puffin-file',
    path: 'x',
    contentHash: '',
  });
}

const chain = (prefix: string, n: number, words: number): Array<[string, string | null, number]> =>
  Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i === 0 ? null : `${prefix}${i - 1}`, words]);

describe('ContentSegmenter', () => {
  it('defaults to 50,000 tokens per segment with natural boundaries', () => {
    expect(DEFAULT_SEGMENTATION).toMatchObject({ maxTokensPerSegment: 50_000, preferNaturalBoundaries: true });
  });

  it('counts tokens with the tokenizer module and covers every prompt exactly once, branch by branch', () => {
    const h = history({ a: [...chain('x', 3, 10), ...chain('y', 2, 10)], b: chain('z', 4, 10) });
    const segments = new ContentSegmenter({ conversationsPerSegment: 1 }).segment(h);
    expect(segments.map((s) => s.promptIds)).toEqual([
      ['x0', 'x1', 'x2'],
      ['y0', 'y1'],
      ['z0', 'z1', 'z2', 'z3'],
    ]);
    expect(segments.map((s) => s.branchId)).toEqual(['a', 'a', 'b']);
    const all = [...h.branches.values()].flat();
    const tokens = (ids: string[]) =>
      ids.reduce((n, id) => n + countTokens(renderTurn(all.find((p) => p.id === id)!)), 0);
    for (const s of segments) expect(s.tokenCount).toBe(tokens(s.promptIds));
    expect(segments[0]!.startTimestamp).toBe(all[0]!.timestamp);
    expect(segments[0]!.endTimestamp).toBe(all[2]!.response!.timestamp);
  });

  it('splits a conversation over maxTokens at turn boundaries, with overlap context after the first part', () => {
    const h = history({ a: chain('x', 10, 200) });
    const turn = countTokens(renderTurn(h.branches.get('a')![0]!));
    const segments = new ContentSegmenter({ maxTokensPerSegment: turn * 3 + 5, segmentOverlap: turn + 5 }).segment(h);
    expect(segments.map((s) => s.promptIds.length)).toEqual([3, 3, 3, 1]);
    expect(segments.flatMap((s) => s.promptIds)).toEqual(chain('x', 10, 0).map(([id]) => id));
    expect(segments[0]!.overlapPromptIds).toEqual([]);
    expect(segments[1]!.overlapPromptIds).toEqual(['x2']);
    expect(segments[3]!.overlapPromptIds).toEqual(['x8']);
    const tokensOf = (id: string) => countTokens(renderTurn(h.branches.get('a')!.find((p) => p.id === id)!));
    for (const s of segments) {
      expect(s.promptIds.reduce((n, id) => n + tokensOf(id), 0)).toBeLessThanOrEqual(turn * 3 + 5);
      expect(s.tokenCount).toBe([...s.overlapPromptIds, ...s.promptIds].reduce((n, id) => n + tokensOf(id), 0));
    }
    const content = new ContentSegmenter().getSegmentContent(segments[1]!, h);
    expect(content).toMatch(/\(Context: the end of the previous part of this conversation\)\nUser: x2 word/);
    expect(content).toContain('Assistant: reply to x3');
    expect(content.indexOf('User: x3')).toBeGreaterThan(content.indexOf('(End of context)'));
    // The summarizer never sees prompt headers, ids, timestamps or the branch id.
    expect(content).not.toMatch(/### Prompt|Branch:|\d{4}-\d\d-\d\dT/);
  });

  it('packs whole small conversations together and never splits one that fits', () => {
    const h = history({ a: [...chain('p', 3, 20), ...chain('q', 3, 20), ...chain('r', 3, 20), ...chain('s', 3, 20)] });
    const turn = countTokens(renderTurn(h.branches.get('a')![0]!));
    const segments = new ContentSegmenter({ maxTokensPerSegment: turn * 7, conversationsPerSegment: 1000 }).segment(h);
    for (const s of segments) expect(s.promptIds.length % 3).toBe(0);
    expect(segments.map((s) => s.promptIds.length)).toEqual([6, 6]);
  });

  it('without natural boundaries packs turns greedily across conversations', () => {
    const h = history({ a: [...chain('p', 3, 20), ...chain('q', 3, 20)] });
    const turn = countTokens(renderTurn(h.branches.get('a')![0]!));
    const segments = new ContentSegmenter({
      maxTokensPerSegment: turn * 4 + 2,
      preferNaturalBoundaries: false,
      segmentOverlap: 0,
    }).segment(h);
    expect(segments.map((s) => s.promptIds)).toEqual([
      ['p0', 'p1', 'p2', 'q0'],
      ['q1', 'q2'],
    ]);
  });

  it('content-defined packing: appending conversations keeps every earlier segment boundary and id', () => {
    const many = Array.from({ length: 40 }, (_, i) => chain(`c${i}-`, 2, 10)).flat();
    const before = new ContentSegmenter().segment(history({ a: many }));
    const after = new ContentSegmenter().segment(history({ a: [...many, ...chain('new-', 2, 10)] }));
    expect(before.length).toBeGreaterThan(1);
    expect(after.slice(0, before.length - 1)).toEqual(before.slice(0, -1).map((s) => ({ ...s })));
    expect(after[before.length - 1]!.id).toBe(before.at(-1)!.id);
  });
});
