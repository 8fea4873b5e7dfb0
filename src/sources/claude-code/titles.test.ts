// Session titles and context records of real Claude Code 2.1 transcripts: `/rename` writes `custom-title`
// and `agent-name` records (the custom title wins); `attachment` records are counted by name, never prompts.
// Expected values are recounted here from the raw records.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, REAL_EXTRA } from '../../../test/support/paths.js';
import type { LineRecord } from '../types.js';
import { parseClaudeCodeLines } from './parser.js';

type J = Record<string, any>;
const lines = (path: string): LineRecord[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .map((text, line) => ({ text, line: line + 1 }))
    .filter((l) => l.text);
const records = (path: string): J[] => lines(path).map((l) => JSON.parse(l.text) as J);

const RENAMED = join(
  REAL_EXTRA,
  'claude-code/omarchy-backup/-home-vwestberg-Claude/44ef5cbf-9cc3-4f7b-ac40-337a4d39713b.jsonl',
);
const WITH_ATTACHMENTS = join(
  FIXTURES,
  'claude-code/omarchy-backup/projects/-home-vwestberg-Claude/1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl',
);

describe('Claude Code titles and attachments (real files)', () => {
  it('titles a renamed session with its last custom-title', () => {
    const raw = records(RENAMED);
    const custom = raw.filter((r) => r.type === 'custom-title');
    expect(custom.length).toBeGreaterThan(0);
    const out = parseClaudeCodeLines(lines(RENAMED), { path: RENAMED });
    const main = out.sessions.find((s) => s.key === '44ef5cbf-9cc3-4f7b-ac40-337a4d39713b');
    expect(main?.title).toBe(custom[custom.length - 1]?.customTitle);
    expect(out.skipped['agent-name']).toBe(raw.filter((r) => r.type === 'agent-name').length);
  });

  it('names a session from agent-name when no custom title exists, and a custom title still wins', () => {
    const rec = (r: J) => JSON.stringify({ sessionId: 's1', ...r });
    const base = [
      rec({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'hello' }, timestamp: '2026-04-09T13:46:00Z' }),
      rec({ type: 'ai-title', aiTitle: 'Greeting' }),
      rec({ type: 'agent-name', agentName: 'reviewer' }),
    ];
    const parse = (texts: string[]) =>
      parseClaudeCodeLines(
        texts.map((text, i) => ({ text, line: i + 1 })),
        { path: '/p/s1.jsonl' },
      ).sessions[0]?.title;
    expect(parse(base)).toBe('reviewer');
    expect(parse([...base, rec({ type: 'custom-title', customTitle: 'Named' })])).toBe('Named');
  });

  it('counts attachment records by name and makes none of them a prompt', () => {
    const raw = records(WITH_ATTACHMENTS);
    const attachments = raw.filter((r) => r.type === 'attachment');
    const queued = attachments.filter((r) => r.attachment?.type === 'queued_command');
    expect(attachments.length).toBeGreaterThan(0);
    const out = parseClaudeCodeLines(lines(WITH_ATTACHMENTS), { path: WITH_ATTACHMENTS });
    expect(out.skipped.attachment ?? 0).toBe(attachments.length - queued.length);
    const lineOf = new Set(attachments.filter((r) => !queued.includes(r)).map((r) => r.uuid));
    const prompts = out.messages.filter((m) => m.kind === 'prompt' && lineOf.has(m.key));
    expect(prompts).toEqual([]);
  });
});
