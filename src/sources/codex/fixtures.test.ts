// Parses every real Codex fixture and checks counts computed here, independently of the parser, from the raw
// JSON (record types, distinct token totals, event_msg user_message as the prompt signal).
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LineRecord } from '../types.js';
import { codexAdapter } from './index.js';

const ROOT = resolve(process.cwd(), '../shared/fixtures/real/codex');
const FILES = codexAdapter.discover(ROOT);

type J = Record<string, any>;

function linesOf(path: string): LineRecord[] {
  const parts = readFileSync(path, 'utf8').split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts.map((text, i) => ({ text, line: i + 1 }));
}

const CALL_TYPES = ['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call'];
const OUTPUT_TYPES = ['function_call_output', 'custom_tool_call_output'];
const hasReasoningText = (p: J) =>
  [...(p.summary ?? []), ...(p.content ?? [])].some((s: J) => typeof s?.text === 'string' && s.text.trim());
const hasContent = (p: J) => (p.content ?? []).some((c: J) => typeof c.text === 'string' || c.type === 'input_image');

/** What the parser should produce, from the raw records of a JSONL rollout (generation 2 or 3). */
function expectedFromJsonl(path: string) {
  const records = linesOf(path).map((l) => JSON.parse(l.text) as J);
  const items = records
    .map((r) => (r.type === 'response_item' ? r.payload : r.payload === undefined && r.type ? r : undefined))
    .filter(Boolean) as J[];
  const messages =
    items.filter(
      (p) =>
        (p.type === 'message' && hasContent(p)) ||
        (p.type === 'reasoning' && hasReasoningText(p)) ||
        CALL_TYPES.includes(p.type) ||
        OUTPUT_TYPES.includes(p.type),
    ).length +
    records.filter(
      (r) => (r.type === 'compacted' && r.payload?.message) || (r.type === 'event_msg' && r.payload?.type === 'error'),
    ).length;
  const userTexts = items
    .filter((p) => p.type === 'message' && p.role === 'user')
    .map((p) => String(p.content?.[0]?.text ?? ''));
  const tokenEvents = records.filter(
    (r) => r.type === 'event_msg' && r.payload?.type === 'token_count' && r.payload.info?.last_token_usage,
  );
  const distinct = new Map<number, J>();
  for (const e of tokenEvents)
    distinct.set(e.payload.info.total_token_usage.total_tokens, e.payload.info.last_token_usage);
  const meta = records[0]?.type === 'session_meta' ? records[0].payload : undefined;
  return {
    key: meta?.id ?? records[0]?.id,
    project: meta?.cwd,
    messages,
    toolCalls: items.filter((p) => CALL_TYPES.includes(p.type)).length,
    toolResults: items.filter((p) => OUTPUT_TYPES.includes(p.type)).length,
    // generation 3 logs each typed prompt once more as event_msg user_message; generation 2 has no events,
    // and its injected items are the ones that open with a tag.
    prompts: meta
      ? records.filter((r) => r.type === 'event_msg' && r.payload?.type === 'user_message').length
      : userTexts.filter((t) => !t.startsWith('<')).length,
    usageCount: distinct.size,
    outputTokens: [...distinct.values()].reduce((a, u) => a + u.output_tokens, 0),
    inputTokens: [...distinct.values()].reduce((a, u) => a + u.input_tokens - u.cached_input_tokens, 0),
    cacheRead: [...distinct.values()].reduce((a, u) => a + u.cached_input_tokens, 0),
  };
}

function expectedFromJson(path: string) {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as J;
  const items = doc.items as J[];
  return {
    key: doc.session.id,
    messages: items.length,
    toolCalls: items.reduce((a, it) => a + (it.tool_calls?.length ?? 0), 0),
    toolResults: items.filter((it) => it.role === 'tool').length,
    prompts: items.filter((it) => it.role === 'user').length,
  };
}

describe('codex adapter on every real fixture', () => {
  it('discovers all eight fixture rollouts', () => {
    expect(FILES.map((f) => relative(ROOT, f)).sort()).toEqual([
      'auto-quantize-model/sessions/2025/11/28/rollout-2025-11-28T03-40-25-019ac88c-3f80-7990-a29a-d20399dcab74.jsonl',
      'blubber-dotfiles/sessions/2026/02/08/rollout-2026-02-08T19-11-16-019c3e73-68a9-7491-a58a-a50dac4ac6d8.jsonl',
      'blubber-dotfiles/sessions/2026/02/10/rollout-2026-02-10T04-57-33-019c45b2-846a-7fa1-9ed7-42354e9982fd.jsonl',
      'moonmind/sessions/2025/11/13/rollout-2025-11-13T18-21-11-019a802a-aab1-7c31-9831-d2510c7a74a2.jsonl',
      'ocodex/sessions/2025/08/19/rollout-2025-08-19T08-25-08-38b123ff-933b-4dfe-bd12-d42671fcb25f.jsonl',
      'ocodex/sessions/2025/08/24/rollout-2025-08-24T17-04-10-b98b051d-8a43-4a16-86f6-0175a69ebdc6.jsonl',
      'ocodex/sessions/rollout-2025-08-23-0418f71e-beb0-474c-a03d-1719a72e64cc.json',
      'ocodex/sessions/rollout-2025-08-23-1a0dd4c9-4e06-40c6-97f9-066c07c8793b.json',
    ]);
    for (const f of FILES) expect(codexAdapter.detect(f, readFileSync(f, 'utf8').slice(0, 4096))).toBe(true);
  });

  for (const path of FILES) {
    it(`parses ${relative(ROOT, path)}`, () => {
      const out = codexAdapter.parseLines(linesOf(path), { path });
      const want: J = path.endsWith('.json') ? expectedFromJson(path) : expectedFromJsonl(path);
      const blocks = out.messages.flatMap((m) => m.blocks);
      const calls = blocks.filter((b) => b.kind === 'tool_call');
      const results = blocks.filter((b) => b.kind === 'tool_result');
      expect(out.notSession).toBeUndefined();
      expect(out.malformed).toEqual([]);
      expect(out.sessions.map((s) => s.key)).toEqual([want.key]);
      expect(out.messages.length).toBe(want.messages);
      expect(calls.length).toBe(want.toolCalls);
      expect(results.length).toBe(want.toolResults);
      expect(out.messages.filter((m) => m.kind === 'prompt').length).toBe(want.prompts);
      // every result is joined to a call of this file, and names its tool
      const callIds = new Set(calls.map((c) => c.toolCallId));
      for (const r of results) {
        expect(callIds.has(r.toolCallId)).toBe(true);
        expect(r.toolName).toBeTruthy();
      }
      for (const c of calls) expect(typeof c.toolInput === 'object' || typeof c.toolInput === 'string').toBe(true);
      // keys unique within the file; encrypted reasoning never stored
      expect(new Set(out.messages.map((m) => m.key)).size).toBe(out.messages.length);
      expect(blocks.some((b) => b.text.startsWith('gAAAAA'))).toBe(false);
      if ('usageCount' in want) {
        const usages = out.messages.flatMap((m) => (m.usage ? [m.usage] : []));
        expect(usages.length).toBe(want.usageCount);
        expect(usages.reduce((a, u) => a + u.outputTokens, 0)).toBe(want.outputTokens);
        expect(usages.reduce((a, u) => a + u.inputTokens, 0)).toBe(want.inputTokens);
        expect(usages.reduce((a, u) => a + u.cacheReadTokens, 0)).toBe(want.cacheRead);
        expect(out.messages.filter((m) => m.usage).every((m) => m.role === 'assistant')).toBe(true);
      }
      if ('project' in want && want.project) expect(out.sessions[0]?.project).toBe(want.project);
    });
  }

  it('pins the per-fixture numbers (sessions / messages / tool calls / prompts)', () => {
    const summary = Object.fromEntries(
      FILES.map((path) => {
        const out = codexAdapter.parseLines(linesOf(path), { path });
        const calls = out.messages.flatMap((m) => m.blocks).filter((b) => b.kind === 'tool_call').length;
        const prompts = out.messages.filter((m) => m.kind === 'prompt').length;
        return [
          relative(ROOT, path).split('/').pop()!.slice(0, 30),
          [out.sessions.length, out.messages.length, calls, prompts],
        ];
      }),
    );
    expect(summary).toEqual({
      'rollout-2025-11-28T03-40-25-01': [1, 1, 0, 0],
      'rollout-2026-02-08T19-11-16-01': [1, 43, 12, 1],
      'rollout-2026-02-10T04-57-33-01': [1, 70, 22, 1],
      'rollout-2025-11-13T18-21-11-01': [1, 131, 42, 1],
      'rollout-2025-08-19T08-25-08-38': [1, 202, 76, 7],
      'rollout-2025-08-24T17-04-10-b9': [1, 15, 3, 2],
      'rollout-2025-08-23-0418f71e-be': [1, 2, 1, 1],
      'rollout-2025-08-23-1a0dd4c9-4e': [1, 9, 3, 2],
    });
  });
});
