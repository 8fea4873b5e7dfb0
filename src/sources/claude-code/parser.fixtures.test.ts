// Parses every real Claude Code fixture and checks counts computed independently from the raw JSON,
// subagent links, compaction handling, the absence of base64 data and split-parse equivalence.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Block, ParsedMessage } from '../../shared/model.js';
import type { LineRecord } from '../types.js';
import { claudeCodeAdapter } from './index.js';

const ROOT = resolve(process.cwd(), '../shared/fixtures/real/claude-code');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.jsonl') ? [join(dir, e.name)] : [],
  );
}
const ALL = walk(ROOT).sort();
const TRANSCRIPTS = ALL.filter((f) => !f.endsWith('.history.jsonl'));

function linesOf(path: string): LineRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((text, i) => ({ text, line: i + 1 }));
}
function parse(path: string, lines: LineRecord[] = linesOf(path)) {
  return claudeCodeAdapter.parseLines(lines, { path });
}

type Raw = Record<string, any>;
function rawRecords(path: string): Raw[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Raw);
}

/**
 * Expected counts from the raw JSON: sessions, messages (distinct assistant ids + user/system records), tool calls,
 * tool results.
 */
function rawCounts(path: string): [number, number, number, number] {
  const agent = /^agent-(.+)\.jsonl$/.exec(basename(path))?.[1];
  const conv = rawRecords(path).filter((r) => ['user', 'assistant', 'system'].includes(r.type));
  const key = (r: Raw): string => (agent ? `agent-${agent}` : r.sessionId);
  const assistantIds = new Set(conv.filter((r) => r.type === 'assistant').map((r) => `${key(r)}|${r.message.id}`));
  let calls = 0;
  let results = 0;
  for (const r of conv) {
    const content = r.message?.content;
    if (!Array.isArray(content)) continue;
    calls += content.filter((b: Raw) => b.type === 'tool_use').length;
    results += content.filter((b: Raw) => b.type === 'tool_result').length;
  }
  return [
    new Set(conv.map(key)).size,
    assistantIds.size + conv.filter((r) => r.type !== 'assistant').length,
    calls,
    results,
  ];
}

const OMARCHY = 'omarchy-backup/projects/-home-vwestberg-Claude';
const MAVENS = 'vps-system/projects/-home-ken-next-mavens-flow';
// [sessions, messages, tool calls, tool results], computed with rawCounts' logic (jq-style, not the parser).
const EXPECTED: Record<string, [number, number, number, number]> = {
  'drmaciver-claude-reliability/coverage-test-fix.jsonl': [1, 30, 13, 13],
  'drmaciver-claude-reliability/python-to-rust-port.jsonl': [1, 80, 39, 39],
  'drmaciver-claude-reliability/stop-hook-reflection-first-stop.jsonl': [1, 12, 4, 4],
  'obra-episodic-memory/large-conversation.jsonl': [1, 350, 152, 152],
  'obra-episodic-memory/long-conversation.jsonl': [1, 190, 98, 98],
  'obra-episodic-memory/medium-conversation.jsonl': [0, 0, 0, 0],
  'obra-episodic-memory/short-conversation.jsonl': [1, 2, 0, 0],
  'obra-episodic-memory/tiny-conversation.jsonl': [1, 6, 1, 1],
  'omarchy-backup/projects/-home-vwestberg-Claude/1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl': [1, 463, 153, 153],
  [`${OMARCHY}/1fb5e404-604d-4a2b-baf1-3beb42a67371/subagents/agent-aa9b6813c05338fac.jsonl`]: [1, 85, 56, 56],
  [`${OMARCHY}/512f6c74-f82f-4adb-9719-4ae90076677c/subagents/agent-a073139c8fe58ba03.jsonl`]: [1, 4, 1, 1],
  [`${OMARCHY}/512f6c74-f82f-4adb-9719-4ae90076677c/subagents/agent-a1409bd91f513fcba.jsonl`]: [1, 9, 6, 6],
  [`${OMARCHY}/512f6c74-f82f-4adb-9719-4ae90076677c/subagents/agent-a2327c8c3086b56ee.jsonl`]: [1, 44, 34, 34],
  [`${OMARCHY}/512f6c74-f82f-4adb-9719-4ae90076677c/subagents/agent-a65810eca9e781f4b.jsonl`]: [1, 6, 2, 2],
  [`${OMARCHY}/512f6c74-f82f-4adb-9719-4ae90076677c/subagents/agent-a6a92bc7d0a52e8c2.jsonl`]: [1, 13, 10, 10],
  [`${OMARCHY}/512f6c74-f82f-4adb-9719-4ae90076677c/subagents/agent-a79bed8f6ae00c34a.jsonl`]: [1, 12, 7, 7],
  [`${OMARCHY}/512f6c74-f82f-4adb-9719-4ae90076677c/subagents/agent-a8e43dcdea414a060.jsonl`]: [1, 2, 0, 0],
  [`${OMARCHY}/512f6c74-f82f-4adb-9719-4ae90076677c/subagents/agent-aa1c7e864af7eb9ee.jsonl`]: [1, 11, 6, 6],
  [`${OMARCHY}/512f6c74-f82f-4adb-9719-4ae90076677c/subagents/agent-af8555925ab48a3d6.jsonl`]: [1, 46, 29, 29],
  'omarchy-backup/projects/-home-vwestberg-Claude/5fbb940a-c7f3-404d-bf66-a028fcc250ec.jsonl': [1, 165, 42, 42],
  [`${OMARCHY}/8fd119a6-9ab8-407b-810f-329cfb6153e0/subagents/agent-a520480fc0182e0d7.jsonl`]: [1, 18, 8, 8],
  'vps-config/projects/-root/6ec78367-c548-4d6d-b80c-ec1d30cc5bb2/subagents/agent-a562625e12c50ac40.jsonl': [
    1, 50, 30, 30,
  ],
  'vps-config/projects/-root/6ec78367-c548-4d6d-b80c-ec1d30cc5bb2/subagents/agent-acompact-645cb129a2c883cb.jsonl': [
    1, 45, 28, 28,
  ],
  'vps-config/projects/-root/8c45ffa0-016d-4a1f-905e-ec59522438f6.jsonl': [1, 31, 4, 4],
  'vps-config/projects/-root/ac2d9503-d382-4350-b4ad-9a8926c9f4f2/subagents/agent-acompact-da0465a580706b8c.jsonl': [
    1, 103, 48, 48,
  ],
  'vps-system/projects/-home-ken-github/f02a98c9-b490-4e35-9f43-293fd40c5686.jsonl': [1, 116, 56, 56],
  'vps-system/projects/-home-ken-next-mavens-flow/0c4091f0-060f-4af0-8df1-c18d15dd7487.jsonl': [1, 11, 5, 5],
  [`${MAVENS}/0c4091f0-060f-4af0-8df1-c18d15dd7487/subagents/agent-aprompt_suggestion-7c77e3.jsonl`]: [1, 3, 0, 0],
  [`${MAVENS}/eb3fff50-8602-4007-9d57-c59c2da9cc9f/subagents/agent-ad82874.jsonl`]: [1, 53, 40, 40],
};

const blocksOf = (messages: ParsedMessage[], kind: Block['kind']): Block[] =>
  messages.flatMap((m) => m.blocks.filter((b) => b.kind === kind));

describe('claude-code adapter on every real fixture', () => {
  it('covers every transcript fixture in the expectation table', () => {
    expect(TRANSCRIPTS.map((f) => relative(ROOT, f)).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(TRANSCRIPTS.map((f) => [relative(ROOT, f), f]))(
    '%s: exact session, message and tool counts',
    (name, path) => {
      const out = parse(path);
      const [sessions, messages, calls, results] = EXPECTED[name]!;
      expect(rawCounts(path)).toEqual([sessions, messages, calls, results]);
      expect(out.notSession).toBeUndefined();
      expect(out.malformed).toEqual([]);
      expect(out.sessions).toHaveLength(sessions);
      expect(out.messages).toHaveLength(messages);
      expect(blocksOf(out.messages, 'tool_call')).toHaveLength(calls);
      expect(blocksOf(out.messages, 'tool_result')).toHaveLength(results);
      for (const session of out.sessions) expect(session.project).toMatch(/^\//);
      // every result answers a call in the same file, and the parser names it
      const callIds = new Set(blocksOf(out.messages, 'tool_call').map((b) => b.toolCallId));
      for (const result of blocksOf(out.messages, 'tool_result')) {
        expect(callIds.has(result.toolCallId)).toBe(true);
        expect(result.toolName).toBeTruthy();
      }
    },
  );

  it('reports the history.jsonl prompt log as not a session', () => {
    const [history] = ALL.filter((f) => f.endsWith('.history.jsonl'));
    const out = parse(history!);
    expect(out.notSession).toMatch(/prompt log/);
    expect(out.sessions).toEqual([]);
    expect(out.messages).toEqual([]);
  });

  it('links every omarchy subagent to the session named by its folder, with the .meta.json agent type', () => {
    const subagents = TRANSCRIPTS.filter((f) => f.includes('/omarchy-backup/') && f.includes('/subagents/'));
    expect(subagents).toHaveLength(11);
    for (const path of subagents) {
      const out = parse(path);
      const meta = JSON.parse(readFileSync(path.replace(/\.jsonl$/, '.meta.json'), 'utf8')) as Raw;
      const [session] = out.sessions;
      expect(session!.key).toBe(basename(path, '.jsonl'));
      expect(session!.parentKey).toBe(basename(dirname(dirname(path))));
      expect(session!.relation).toBe('subagent');
      expect(session!.meta).toMatchObject({ agentType: meta.agentType, description: meta.description });
      expect(out.messages.every((m) => m.sessionKey === session!.key && m.isSidechain === true)).toBe(true);
      // the subagent's task prompt is written by the parent agent, not typed by a person
      expect(out.messages.filter((m) => m.kind === 'prompt')).toEqual([]);
    }
  });

  it('models compaction in the vps-config files', () => {
    const dir = join(ROOT, 'vps-config/projects/-root');
    const compactA = parse(
      join(dir, 'ac2d9503-d382-4350-b4ad-9a8926c9f4f2/subagents/agent-acompact-da0465a580706b8c.jsonl'),
    );
    expect(compactA.sessions[0]).toMatchObject({
      key: 'agent-acompact-da0465a580706b8c',
      parentKey: 'ac2d9503-d382-4350-b4ad-9a8926c9f4f2',
      relation: 'compaction',
    });
    const boundary = compactA.messages.find((m) => m.meta?.subtype === 'compact_boundary');
    expect(boundary).toMatchObject({
      kind: 'system',
      role: 'system',
      line: 1,
      meta: { compactMetadata: { trigger: 'auto', preTokens: 173591 } },
    });
    const summary = compactA.messages.filter((m) => m.kind === 'compaction');
    expect(summary).toHaveLength(1);
    expect(summary[0]!.line).toBe(2);
    expect(summary[0]!.blocks[0]).toMatchObject({ kind: 'summary' });
    expect(summary[0]!.blocks[0]!.text).toMatch(/^This session is being continued/);

    const compactB = parse(
      join(dir, '6ec78367-c548-4d6d-b80c-ec1d30cc5bb2/subagents/agent-acompact-645cb129a2c883cb.jsonl'),
    );
    expect(compactB.sessions[0]).toMatchObject({
      parentKey: '6ec78367-c548-4d6d-b80c-ec1d30cc5bb2',
      relation: 'compaction',
    });

    const worker = parse(join(dir, '6ec78367-c548-4d6d-b80c-ec1d30cc5bb2/subagents/agent-a562625e12c50ac40.jsonl'));
    expect(worker.sessions[0]).toMatchObject({ relation: 'subagent', meta: { agentType: 'general-purpose' } });
    expect(worker.messages.filter((m) => m.kind === 'compaction')).toHaveLength(1);
    expect(worker.messages.filter((m) => m.meta?.subtype === 'compact_boundary')).toHaveLength(1);
    const errors = worker.messages.filter((m) => m.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ role: 'assistant', meta: { error: 'rate_limit' } });
    expect(errors[0]!.usage).toBeUndefined();
    expect(worker.sessions[0]!.meta?.models).not.toContain('<synthetic>');
  });

  it('never puts base64 media data in blocks and keeps image/document metadata', () => {
    const samples: string[] = [];
    let media = 0;
    for (const path of TRANSCRIPTS) {
      for (const r of rawRecords(path)) {
        const content = r.message?.content;
        if (!Array.isArray(content)) continue;
        for (const b of content) if (typeof b.source?.data === 'string') samples.push(b.source.data.slice(100, 180));
      }
      const out = parse(path);
      for (const m of out.messages) {
        const dump = JSON.stringify(m);
        for (const sample of samples) expect(dump.includes(sample)).toBe(false);
      }
      media += out.messages.flatMap((m) => m.blocks).filter((b) => b.kind === 'image' || b.kind === 'document').length;
    }
    expect(samples).toHaveLength(10);
    expect(media).toBe(10);
    const main = parse(
      join(ROOT, 'omarchy-backup/projects/-home-vwestberg-Claude/1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl'),
    );
    const images = blocksOf(main.messages, 'image');
    expect(images).toHaveLength(9);
    expect(images[0]).toMatchObject({
      text: '',
      meta: { mediaType: 'image/png', sourceType: 'base64', bytes: Math.floor((120384 * 3) / 4) },
    });
    const pdf = blocksOf(parse(join(ROOT, 'obra-episodic-memory/long-conversation.jsonl')).messages, 'document');
    expect(pdf).toEqual([
      {
        kind: 'document',
        text: '',
        meta: { mediaType: 'application/pdf', sourceType: 'base64', bytes: Math.floor((342728 * 3) / 4) },
      },
    ]);
  });

  it('uses summary records as titles and assistant models in session meta', () => {
    const github = parse(join(ROOT, 'vps-system/projects/-home-ken-github/f02a98c9-b490-4e35-9f43-293fd40c5686.jsonl'));
    expect(github.sessions[0]).toMatchObject({
      title: 'Linux flow CLI: Fixed PowerShell dependency, created native bash implementation',
      gitBranch: 'main',
      project: '/home/ken/github',
    });
    expect(github.sessions[0]!.meta?.models).toEqual(['glm-4.7']);
    expect(github.skipped.summary).toBe(1);
    const large = parse(join(ROOT, 'obra-episodic-memory/large-conversation.jsonl'));
    expect(large.sessions[0]!.title).toBe("Clarifying AI Assistant's Action-Taking Guidelines");
  });
});

/** What the store does: a later message with the same key in the same session has its blocks appended. */
function storeMerge(messages: ParsedMessage[]): unknown[] {
  const merged = new Map<string, ParsedMessage>();
  for (const m of messages) {
    const id = `${m.sessionKey}\u0000${m.key}`;
    const existing = merged.get(id);
    if (existing) existing.blocks.push(...m.blocks);
    else merged.set(id, { ...m, blocks: [...m.blocks] });
  }
  // usage is deduplicated by the store per API message id; a result's toolName is only known when its
  // call was parsed in the same call, so both are left out of the comparison
  return [...merged.values()].map(({ usage: _usage, ...m }) => ({
    ...m,
    blocks: m.blocks.map((b) => (b.kind === 'tool_result' ? { ...b, toolName: undefined } : b)),
  }));
}

describe('split parsing', () => {
  it.each(TRANSCRIPTS.map((f) => [relative(ROOT, f), f]))(
    '%s: two calls merge to the same messages as one',
    (_name, path) => {
      const lines = linesOf(path);
      const whole = storeMerge(parse(path, lines).messages);
      const cuts =
        lines.length <= 40
          ? lines.map((_, i) => i)
          : [1, 2, 3, 5, 8, 13].map((k) => Math.floor((lines.length * k) / 14));
      for (const cut of cuts) {
        const first = parse(path, lines.slice(0, cut));
        const second = parse(path, lines.slice(cut));
        expect(storeMerge([...first.messages, ...second.messages])).toEqual(whole);
      }
    },
  );
});
