// Parses every real Gemini fixture and checks counts computed here, independently of the parser, from the raw
// JSON: distinct message ids (later records replace earlier ones), tool calls of the final records, prompts.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiAdapter } from './index.js';
import { CHECKPOINT_REASON, PROMPT_LOG_REASON } from './parser.js';

const ROOT = resolve(process.cwd(), '../shared/fixtures/real/gemini');
const FILES = geminiAdapter.discover(ROOT);
type J = Record<string, any>;

function finalRecords(path: string): { header: J; records: J[] } {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.json')) {
    const doc = JSON.parse(text) as J;
    return { header: doc, records: doc.messages };
  }
  const rows = text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as J);
  const byId = new Map<string, J>();
  let header: J = {};
  for (const r of rows) {
    if (r.$set) header = { ...header, ...r.$set };
    else if (r.id && r.type) byId.set(r.id, r);
    else if (r.sessionId) header = { ...header, ...r };
  }
  return { header, records: [...byId.values()] };
}

describe('gemini adapter on every real fixture', () => {
  it('discovers the six fixture files', () => {
    expect(FILES.map((f) => relative(ROOT, f)).sort()).toEqual([
      'MyDotFiles-HyDE/tmp/b899de0d/chats/session-2025-09-26T15-33-772cf022.json',
      'MyDotFiles-HyDE/tmp/b899de0d/checkpoint-InskapeNotes.json',
      'MyDotFiles-HyDE/tmp/b899de0d/logs.json',
      'vibe-coding-comparison/tmp/ticketing-vc/chats/session-2026-04-25T08-23-e435870b.jsonl',
      'vibe-coding-comparison/tmp/ticketing-vc/chats/session-2026-04-25T08-41-3494a697.jsonl',
      'vibe-coding-comparison/tmp/ticketing-vc/logs.json',
    ]);
    for (const f of FILES) expect(geminiAdapter.detect(f, readFileSync(f, 'utf8').slice(0, 4096))).toBe(true);
  });

  for (const path of FILES) {
    it(`parses ${relative(ROOT, path)}`, async () => {
      const out = await geminiAdapter.parseFile({ path });
      if (path.endsWith('logs.json') || /checkpoint-/.test(path)) {
        expect(out.notSession).toBe(path.endsWith('logs.json') ? PROMPT_LOG_REASON : CHECKPOINT_REASON);
        expect(out.sessions).toEqual([]);
        expect(out.messages).toEqual([]);
        return;
      }
      const { header, records } = finalRecords(path);
      const calls = records.flatMap((r) => r.toolCalls ?? []);
      const blocks = out.messages.flatMap((m) => m.blocks);
      expect(out.notSession).toBeUndefined();
      expect(out.malformed).toEqual([]);
      expect(out.sessions).toHaveLength(1);
      expect(out.sessions[0]).toMatchObject({
        key: header.sessionId,
        agent: 'gemini',
        meta: { projectHash: header.projectHash, lastUpdated: header.lastUpdated },
      });
      expect(out.sessions[0]?.project).toBeUndefined();
      expect(out.messages.length).toBe(records.length + calls.filter((c: J) => c.result).length);
      expect(blocks.filter((b) => b.kind === 'tool_call').length).toBe(calls.length);
      expect(blocks.filter((b) => b.kind === 'tool_result').length).toBe(calls.filter((c: J) => c.result).length);
      expect(blocks.filter((b) => b.kind === 'tool_result' && b.isError).length).toBe(
        calls.filter((c: J) => c.status !== 'success').length,
      );
      expect(out.messages.filter((m) => m.kind === 'prompt').length).toBe(
        records.filter((r) => r.type === 'user').length,
      );
      expect(out.messages.filter((m) => m.kind === 'error').length).toBe(
        records.filter((r) => r.type === 'error').length,
      );
      const usages = out.messages.flatMap((m) => (m.usage ? [m.usage] : []));
      const withTokens = records.filter((r) => r.type === 'gemini' && r.tokens);
      expect(usages.length).toBe(withTokens.length);
      expect(usages.reduce((a, u) => a + u.outputTokens, 0)).toBe(
        withTokens.reduce((a, r) => a + r.tokens.output + r.tokens.thoughts, 0),
      );
      expect(usages.reduce((a, u) => a + u.cacheReadTokens, 0)).toBe(
        withTokens.reduce((a, r) => a + r.tokens.cached, 0),
      );
      expect(blocks.filter((b) => b.kind === 'thinking').length).toBe(
        records.reduce((a, r) => a + (r.thoughts?.length ?? 0), 0),
      );
      expect(new Set(out.messages.map((m) => m.key)).size).toBe(out.messages.length);
    });
  }

  it('pins the per-fixture numbers (sessions / messages / tool calls / prompts)', async () => {
    const summary: Record<string, unknown> = {};
    for (const path of FILES) {
      const out = await geminiAdapter.parseFile({ path });
      const calls = out.messages.flatMap((m) => m.blocks).filter((b) => b.kind === 'tool_call').length;
      summary[relative(ROOT, path).split('/').slice(-2).join('/')] = out.notSession
        ? 'notSession'
        : [out.sessions.length, out.messages.length, calls, out.messages.filter((m) => m.kind === 'prompt').length];
    }
    expect(summary).toEqual({
      'chats/session-2025-09-26T15-33-772cf022.json': [1, 49, 0, 14],
      'b899de0d/checkpoint-InskapeNotes.json': 'notSession',
      'b899de0d/logs.json': 'notSession',
      'chats/session-2026-04-25T08-23-e435870b.jsonl': [1, 25, 7, 3],
      'chats/session-2026-04-25T08-41-3494a697.jsonl': [1, 15, 6, 2],
      'ticketing-vc/logs.json': 'notSession',
    });
  });
});
