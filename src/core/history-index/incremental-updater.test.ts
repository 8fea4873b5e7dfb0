// AC 5 (IncrementalUpdater): the provider's calls are counted through a wrapper. Unchanged history → 0
// calls; one prompt edited → only its segment summarized again (the others keep the summaries of the
// existing index file); more than 50% of segments changed → full reindex; stale stand-ins are redone.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createExtractiveProvider, LlmRunner, type LlmProvider } from '../llm/index.js';
import { generateHistoryIndex, IncrementalUpdater, type GenerateOptions, type HistoryIndex } from './index.js';
import { tempDir } from '../../../test/support/paths.js';
import {
  countingProvider,
  samplePrompts,
  writeHistory,
  type SamplePrompt,
} from '../../../test/support/history-index-fixtures.js';

function setup(options: { threads?: number; conversationsPerSegment?: number } = {}) {
  const dir = tempDir();
  const history = join(dir, 'history.json');
  const out = join(dir, 'history.index.json');
  const prompts = samplePrompts(options.threads ?? 20, 3);
  writeHistory(history, { main: prompts });
  const counting = countingProvider();
  const run = (extra: Partial<GenerateOptions> = {}, provider: LlmProvider = counting.provider) => {
    counting.reset();
    return generateHistoryIndex({
      source: { kind: 'puffin-file', path: history },
      outputPath: out,
      runner: new LlmRunner({ provider }),
      segmentConfig: { conversationsPerSegment: options.conversationsPerSegment ?? 1 },
      ...extra,
    });
  };
  const readIndex = (): HistoryIndex => JSON.parse(readFileSync(out, 'utf8')) as HistoryIndex;
  const rewrite = (edit: (p: SamplePrompt[]) => SamplePrompt[], indent = 2) =>
    writeHistory(history, { main: edit(structuredClone(prompts)) }, indent);
  return { dir, history, out, prompts, counting, run, readIndex, rewrite };
}

const segmentOf = (index: HistoryIndex, promptId: string) =>
  index.segments.find((s) => s.promptIds.includes(promptId))!;

describe('incremental updates', () => {
  it('unchanged history → 0 LLM calls and the index file is left byte-identical', async () => {
    const t = setup();
    const first = await t.run();
    expect(first.mode).toBe('full');
    expect(t.counting.calls()).toBe(20);
    const before = readFileSync(t.out);
    const again = await t.run();
    expect(t.counting.calls()).toBe(0);
    expect(again.mode).toBe('unchanged');
    expect(again.written).toBe(false);
    expect(again.stats.incrementalStats).toMatchObject({
      mode: 'unchanged',
      segmentsSkipped: 20,
      segmentsUpdated: 0,
      segmentsAdded: 0,
    });
    expect(again.stats.llmCalls.count).toBe(0);
    expect(readFileSync(t.out).equals(before)).toBe(true);
  });

  it('a re-serialized file with the same prompts (new bytes, same content) → 0 calls, summaries kept', async () => {
    const t = setup();
    await t.run();
    const before = t.readIndex();
    t.rewrite((p) => p, 0);
    const again = await t.run();
    expect(t.counting.calls()).toBe(0);
    expect(again.plan?.fullReindex).toBe(false);
    expect(again.plan?.segmentsUnchanged).toHaveLength(20);
    expect(again.written).toBe(true);
    const after = t.readIndex();
    expect(after.contentHash).not.toBe(before.contentHash);
    expect(after.segments).toEqual(before.segments);
  });

  it('one prompt edited → only its segment is summarized again; others keep the existing summaries', async () => {
    const t = setup();
    await t.run();
    // Mark every summary in the existing file: anything not re-summarized must keep the mark.
    const marked = t.readIndex();
    for (const s of marked.segments) s.summary = `KEPT ${s.id}`;
    writeFileSync(t.out, JSON.stringify(marked));
    t.rewrite((p) =>
      p.map((x) => (x.id === 'main-t7-p1' ? { ...x, content: x.content + ' Also rename the helper.' } : x)),
    );
    const result = await t.run();
    expect(t.counting.calls()).toBe(1);
    const edited = segmentOf(result.index, 'main-t7-p1');
    expect(result.plan).toMatchObject({
      fullReindex: false,
      segmentsToAdd: [],
      segmentsToUpdate: [edited.id],
      segmentsToRemove: [],
      estimatedCost: 1,
    });
    expect(result.plan?.promptChanges).toEqual({ added: [], modified: ['main-t7-p1'], removed: [] });
    expect(result.stats.incrementalStats).toMatchObject({
      mode: 'incremental',
      segmentsSkipped: 19,
      segmentsUpdated: 1,
      segmentsAdded: 0,
    });
    const after = t.readIndex();
    for (const s of after.segments) {
      if (s.id === edited.id) expect(s.summary).not.toMatch(/^KEPT/);
      else expect(s.summary).toBe(`KEPT ${s.id}`);
    }
    expect(after.statistics.llmCallCount).toBe(1);
  });

  it('with packed segments (several conversations each) an edit still touches one segment', async () => {
    const t = setup({ threads: 60, conversationsPerSegment: 8 });
    const first = await t.run();
    const segments = first.index.segments.length;
    expect(segments).toBeGreaterThan(2);
    expect(segments).toBeLessThan(60);
    t.rewrite((p) =>
      p.map((x) =>
        x.id === 'main-t33-p2' ? { ...x, content: 'Completely different question about the cache layer.' } : x,
      ),
    );
    const result = await t.run();
    expect(t.counting.calls()).toBe(1);
    expect(result.index.segments.map((s) => s.id)).toEqual(first.index.segments.map((s) => s.id));
  });

  it('added and removed conversations: one call for the new segment, none for the removed one', async () => {
    const t = setup();
    await t.run();
    const extra = samplePrompts(1, 2, 'main', Date.UTC(2025, 5, 1)).map((p) => ({
      ...p,
      id: p.id.replace('t0', 'new'),
      parentId: p.parentId?.replace('t0', 'new') ?? null,
    }));
    t.rewrite((p) => [...p.filter((x) => !x.id.startsWith('main-t3-')), ...extra]);
    const result = await t.run();
    expect(t.counting.calls()).toBe(1);
    expect(result.plan?.segmentsToAdd).toHaveLength(1);
    expect(result.plan?.segmentsToRemove).toHaveLength(1);
    expect(result.plan?.promptChanges.removed.sort()).toEqual(['main-t3-p0', 'main-t3-p1', 'main-t3-p2']);
    expect(result.index.segments).toHaveLength(20);
  });

  it('more than 50% of segments changed → full reindex chosen; exactly 50% stays incremental', async () => {
    const t = setup();
    await t.run();
    const editThreads = (n: number) => (p: SamplePrompt[]) =>
      p.map((x) =>
        Number(/t(\d+)/.exec(x.id)![1]) < n && x.id.endsWith('p0')
          ? { ...x, content: `${x.content} (revised ${n})` }
          : x,
      );
    t.rewrite(editThreads(10));
    const half = await t.run();
    expect(half.plan?.fullReindex).toBe(false);
    expect(t.counting.calls()).toBe(10);
    t.rewrite(editThreads(11));
    const most = await t.run();
    expect(most.plan?.fullReindex).toBe(true);
    expect(most.plan?.reason).toMatch(/11 of 20 segments affected \(more than 50%\)/);
    expect(most.mode).toBe('full');
    expect(t.counting.calls()).toBe(20);
    expect(
      new IncrementalUpdater(null).shouldFullReindex({
        segmentsToAdd: [],
        segmentsToUpdate: ['a', 'b'],
        segmentsToRemove: [],
        segmentsUnchanged: ['c'],
        estimatedCost: 2,
        promptChanges: { added: [], modified: [], removed: [] },
        fullReindex: false,
        reason: '',
      }),
    ).toBe(true);
  });

  it('--full, and a different provider/model, summarize everything again', async () => {
    const t = setup();
    await t.run();
    await t.run({ full: true });
    expect(t.counting.calls()).toBe(20);
    const other = countingProvider({ ...createExtractiveProvider(), model: 'extractive-v2' });
    const result = await t.run({}, other.provider);
    expect(other.calls()).toBe(20);
    expect(result.plan?.reason).toMatch(/other settings/);
  });

  it('a budget stop keeps extractive stand-ins marked stale; the next run summarizes only those', async () => {
    const t = setup();
    const networked = countingProvider({ ...createExtractiveProvider(), networked: true });
    const warnings: string[] = [];
    const first = await generateHistoryIndex({
      source: { kind: 'puffin-file', path: t.history },
      outputPath: t.out,
      segmentConfig: { conversationsPerSegment: 1 },
      runner: new LlmRunner({ provider: networked.provider, maxCalls: 15, concurrency: 1 }),
      logger: { info() {}, warn: (l) => warnings.push(l) },
    });
    expect(networked.calls()).toBe(15);
    expect(first.index.segments.filter((s) => s.stale)).toHaveLength(5);
    expect(first.stats.errors.filter((e) => e.phase === 'summarize')).toHaveLength(5);
    expect(warnings.join('\n')).toMatch(/maxCalls|max.?calls|budget/i);
    networked.reset();
    const second = await generateHistoryIndex({
      source: { kind: 'puffin-file', path: t.history },
      outputPath: t.out,
      segmentConfig: { conversationsPerSegment: 1 },
      runner: new LlmRunner({ provider: networked.provider }),
    });
    expect(networked.calls()).toBe(5);
    expect(second.index.segments.some((s) => s.stale)).toBe(false);
  });
});
