// Chunks: cut at message boundaries, each within the token budget (header included) as the one
// tokenizer counts the rendered chunk; a message larger than the budget is cut to fit.
import { describe, expect, it } from 'vitest';
import { buildLogbookRequest, formatLogbookChunk } from '../llm/index.js';
import { chunkConversation, type Conversation } from './index.js';
import { chunkInput } from './chunker.js';
import { countTokens } from '../../shared/tokenizer.js';

const conversation = (texts: string[]): Conversation => ({
  id: 'conv-1',
  agent: 'claude-code',
  title: 'Storage work',
  startedAt: '2026-01-01T00:00:00Z',
  fingerprint: 'f',
  messages: texts.map((text, i) => ({
    chunkId: String(i + 1),
    session: 'conv-1',
    agent: 'claude-code',
    number: i + 1,
    role: i % 2 ? 'assistant' : 'user',
    timestamp: `2026-01-01T00:${String(i).padStart(2, '0')}:00Z`,
    text,
    failed: false,
  })),
});

describe('chunkConversation', () => {
  it('splits at message boundaries, in order, every chunk within the budget', () => {
    const conv = conversation(
      Array.from({ length: 40 }, (_, i) => `Message ${i} about the write path and its locks. `.repeat(1 + (i % 7))),
    );
    const chunks = chunkConversation(conv, 500);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.flatMap((c) => c.messages.map((m) => m.chunkId))).toEqual(conv.messages.map((m) => m.chunkId));
    for (const c of chunks)
      expect(
        countTokens(formatLogbookChunk({ ...chunkInput(conv, c.messages), existingEvents: [] })),
      ).toBeLessThanOrEqual(500);
    expect(new Set(chunks.map((c) => c.hash)).size).toBe(chunks.length);
    expect(chunkConversation(conv, 500).map((c) => c.hash)).toEqual(chunks.map((c) => c.hash));
  });

  it('cuts a message larger than the budget; a short conversation is one chunk', () => {
    const conv = conversation(['short question', 'word '.repeat(5000), 'thanks']);
    const chunks = chunkConversation(conv, 400);
    expect(chunks.map((c) => c.messages.length)).toEqual([1, 1, 1]);
    expect(chunks[1]!.messages[0]!.text.endsWith('…')).toBe(true);
    for (const c of chunks)
      expect(
        countTokens(formatLogbookChunk({ ...chunkInput(conv, c.messages), existingEvents: [] })),
      ).toBeLessThanOrEqual(400);
    expect(chunkConversation(conversation(['a', 'b']), 3000)).toHaveLength(1);
  });

  it("keeps the end of a long user message: the user's words typed below a pasted document", () => {
    const pasted = `## Guidelines\n${'- Always use the form helper in templates.\n'.repeat(600)}<!-- rules-end -->\n`;
    const conv = conversation([`${pasted}We decided to split OrderItem into OrderItem and OrderItemDetails.`]);
    const [chunk] = chunkConversation(conv, 400);
    const text = chunk!.messages[0]!.text;
    expect(text.startsWith('## Guidelines')).toBe(true);
    expect(text.endsWith('We decided to split OrderItem into OrderItem and OrderItemDetails.')).toBe(true);
    expect(
      countTokens(formatLogbookChunk({ ...chunkInput(conv, chunk!.messages), existingEvents: [] })),
    ).toBeLessThanOrEqual(400);
  });

  it('gives the chunk one time range, no time line per message, and asks for the [N] it shows', () => {
    const conv = conversation(['Use SQLite for the cache.', 'Agreed, SQLite it is.']);
    const input = { ...chunkInput(conv, conv.messages), existingEvents: [] };
    const text = formatLogbookChunk(input);
    expect(text).toContain('Time: 2026-01-01T00:00:00Z → 2026-01-01T00:01:00Z\n');
    expect(text).not.toContain('(Time:');
    expect(text).toContain('assistant [2]: Agreed, SQLite it is.');
    const prompt = buildLogbookRequest(input).prompt;
    expect(prompt).toContain('"message_id": 13');
    expect(prompt).not.toContain('uuid');
  });
});
