// A session sent a window at a time: results paired with calls across window edges, windows that never start
// on a result drawn in an earlier call, a first answer far smaller than the whole, and find past the window.
import { describe, expect, it } from 'vitest';
import type { DetailBlock, DetailMessage, SessionDetail } from './session-detail.js';
import { findIn, findTexts, outlineOf, PAGE_MESSAGES, pageOf, pairResults, windowStart } from './session-pages.js';

const block = (kind: string, text: string, toolCallId: string | null = null): DetailBlock => ({
  kind,
  field: kind === 'tool_call' ? 'input' : 'text',
  text,
  toolName: toolCallId ? 'Bash' : null,
  toolCallId,
  isError: false,
  noise: null,
});

/** 400 messages: odd ones a reply with a call `c<n>`, even ones that call's result (with a long text). */
function session(): SessionDetail {
  const messages: DetailMessage[] = [];
  for (let n = 1; n <= 400; n++) {
    const call = n % 2 === 1;
    const text = call
      ? `{"command":"ls ${n}"}`
      : `output of ${n - 1}: ${'x'.repeat(2_000)}${n === 300 ? ' zebrafish' : ''}`;
    messages.push({
      n,
      role: call ? 'assistant' : 'user',
      kind: call ? 'response' : 'tool_result',
      timestamp: null,
      model: null,
      usage: null,
      blocks: [block(call ? 'tool_call' : 'tool_result', text, `c${call ? n : n - 1}`)],
    });
  }
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  return {
    ...{ id: 'big', agent: 'claude-code', project: null, gitBranch: null, title: 'big', startedAt: null },
    ...{ endedAt: null, models: [], relation: null, parent: null, subagents: [], tokens, files: [], messages },
  };
}

describe('session pages', () => {
  it('pairs each result with its call and hides the messages holding only results', () => {
    const pairs = pairResults(session().messages);
    expect(pairs.hidden.size).toBe(200);
    expect(pairs.hidden.has(2)).toBe(true);
    expect(pairs.callOf.get(300)).toBe(299);
    // Index 99 is message 100, a result of message 99: a window starting there starts at its call.
    expect(windowStart(pairs.callOf, 99)).toBe(98);
    expect(windowStart(pairs.callOf, 98)).toBe(98);
  });

  it('sends the results of a window’s calls that sit outside it', () => {
    const detail = session();
    const pairs = pairResults(detail.messages);
    const page = pageOf(detail, pairs, 0, 99);
    expect(page.messages.map((m) => m.n)).toEqual(Array.from({ length: 99 }, (_, i) => i + 1));
    expect(page.results.map((r) => [r.toolCallId, r.message])).toEqual([['c99', 100]]);
    expect(page.messages[1]!.blocks[0]!.pairedWith).toBe(1);
  });

  it('answers first with the window around the message asked for, a small part of the whole', () => {
    const detail = session();
    const pairs = pairResults(detail.messages);
    const outline = outlineOf(detail, pairs, 300);
    expect(outline.total).toBe(400);
    expect(outline.page.from).toBeLessThan(299);
    expect(outline.page.from).toBeGreaterThanOrEqual(299 - 1 - 10 - 1);
    expect(outline.page.messages).toHaveLength(PAGE_MESSAGES);
    expect(outline.page.messages.some((m) => m.n === 300)).toBe(true);
    const first = JSON.stringify(outline).length;
    expect(first).toBeLessThan(JSON.stringify(detail).length / 3);
    expect(outlineOf(detail, pairs).page.from).toBe(0);
  });

  it('finds words in a result outside the first window, under its call’s message', () => {
    const detail = session();
    pairResults(detail.messages);
    expect(findIn(findTexts(detail), 'ZebraFish')).toEqual([299]);
    expect(findIn(findTexts(detail), 'ls 7')).toEqual([7, 71, 73, 75, 77, 79]);
    expect(findIn(findTexts(detail), '  ')).toEqual([]);
  });
});
