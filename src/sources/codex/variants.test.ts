// Newer and unusual Codex rollout shapes (codex-rs protocol models.rs / rollout policy.rs): refusal parts, tool
// output content items with images, and response item types this parser has no case for yet.
import { describe, expect, it } from 'vitest';
import type { LineRecord } from '../types.js';
import { codexAdapter } from './index.js';

const ID = '019c0000-aaaa-7bbb-8ccc-eeeeeeeeeeee';
const PATH = `/home/u/.codex/sessions/2026/11/01/rollout-2026-11-01T10-00-00-${ID}.jsonl`;
const env = (type: string, payload: object) => JSON.stringify({ timestamp: '2026-11-01T10:00:01.000Z', type, payload });
const meta = env('session_meta', { id: ID, timestamp: '2026-11-01T10:00:00.000Z', cwd: '/w' });
const parse = (texts: string[]) => {
  const lines: LineRecord[] = texts.map((text, i) => ({ text, line: i + 1 }));
  return codexAdapter.parseLines(lines, { path: PATH });
};
const texts = (out: ReturnType<typeof parse>) => out.messages.flatMap((m) => m.blocks.map((b) => b.text));

describe('codex parser: content parts read leniently', () => {
  it('keeps refusal parts and text parts of unknown types', () => {
    const out = parse([
      meta,
      env('response_item', {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'answer' },
          { type: 'refusal', refusal: 'cannot do that' },
          { type: 'summary_text_v2', text: 'future part' },
        ],
      }),
    ]);
    expect(texts(out)).toEqual(['answer', 'cannot do that', 'future part']);
  });

  it('keeps the image of a tool output content list as metadata beside its text', () => {
    const out = parse([
      meta,
      env('response_item', {
        type: 'function_call_output',
        call_id: 'c1',
        output: [
          { type: 'input_text', text: 'screenshot taken' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
        ],
      }),
    ]);
    const blocks = out.messages[0]?.blocks ?? [];
    expect(blocks[0]).toMatchObject({ kind: 'tool_result', text: 'screenshot taken', toolCallId: 'c1' });
    expect(blocks[0]?.meta).toMatchObject({ images: [{ mediaType: 'image/png', inline: true }] });
    expect(JSON.stringify(out)).not.toContain('AAAA');
  });
});

describe('codex parser: unknown response item types', () => {
  it('stores an unknown *_call item as a tool call and its *_call_output as the result', () => {
    const out = parse([
      meta,
      env('response_item', { type: 'tool_search_call', call_id: 'ts1', arguments: '{"query":"needle"}' }),
      env('response_item', { type: 'tool_search_call_output', call_id: 'ts1', output: 'found it' }),
      env('response_item', { type: 'image_generation_call', id: 'ig1', revised_prompt: 'a cat', result: 'iVBOR' }),
    ]);
    const blocks = out.messages.flatMap((m) => m.blocks);
    expect(blocks[0]).toMatchObject({ kind: 'tool_call', toolName: 'tool_search', toolCallId: 'ts1' });
    expect(blocks[0]?.toolInput).toEqual({ query: 'needle' });
    expect(blocks[1]).toMatchObject({ kind: 'tool_result', text: 'found it', toolName: 'tool_search' });
    expect(blocks[2]).toMatchObject({ kind: 'tool_call', toolName: 'image_generation', toolCallId: 'ig1' });
    expect(blocks[2]?.text).toContain('a cat');
    expect(blocks[2]?.text).not.toContain('iVBOR');
    expect(out.skipped).toEqual({});
  });

  it('still counts known non-conversation items and unknown shapes without text by name', () => {
    const out = parse([
      meta,
      env('response_item', { type: 'ghost_snapshot', ghost_commit: { id: 'a' } }),
      env('response_item', { type: 'compaction', encrypted_content: 'gAAA' }),
      env('response_item', { type: 'mystery', flag: true }),
    ]);
    expect(out.messages).toEqual([]);
    expect(out.skipped).toEqual({
      'response_item:ghost_snapshot': 1,
      'response_item:compaction': 1,
      'response_item:mystery': 1,
    });
  });
});

describe('codex parser: injected user items and compaction', () => {
  const userItem = (text: string) =>
    env('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

  it('marks review results, skill bodies and skill instructions as injected context, not prompts', () => {
    const out = parse([
      meta,
      userItem('<user_action>\n  <context>User initiated a review task.</context>\n  <results>finding 1</results>'),
      userItem('<skill>\n<name>deploy</name>\nsteps</skill>'),
      userItem('<skills_instructions>use skills</skills_instructions>'),
      userItem('a real question'),
    ]);
    expect(out.messages.map((m) => [m.kind, m.blocks[0]?.noise])).toEqual([
      ['meta', 'user_action'],
      ['meta', 'skill'],
      ['meta', 'skills_instructions'],
      ['prompt', undefined],
    ]);
  });

  it('names a compaction that only carries a replacement history', () => {
    const out = parse([meta, env('compacted', { message: '', replacement_history: [{ type: 'message' }] })]);
    expect(out.skipped).toEqual({ 'compacted:replacement_history_only': 1 });
  });
});

describe('codex parser: empty values', () => {
  it('counts a user item whose only text part is empty as an empty message, not a prompt', () => {
    const out = parse([
      meta,
      env('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: '' }] }),
    ]);
    expect(out.messages).toEqual([]);
    expect(out.skipped).toEqual({ 'message:empty': 1 });
  });
});
