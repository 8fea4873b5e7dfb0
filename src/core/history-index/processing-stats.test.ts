// AC 7 (ProcessingStats): the spec's console summary (durations, counts, markers by type, LLM calls and
// cost, incremental skipped/updated/added, errors) and the same numbers as JSON, from a real run.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatSummary, generateHistoryIndex, ProcessingStats } from './index.js';
import { tempDir } from '../../../test/support/paths.js';
import { countingRunner } from '../../../test/support/history-index-fixtures.js';

describe('ProcessingStats', () => {
  it('formats the spec console summary exactly', () => {
    let clock = 1000;
    const stats = new ProcessingStats(() => clock);
    stats.startPhase('parse');
    clock += 1200;
    stats.endPhase('parse');
    stats.recordPromptProcessed(1234);
    stats.recordSegmentGenerated(48);
    for (const [type, n] of [
      ['decision', 23],
      ['bug', 45],
      ['todo', 67],
      ['ref', 21],
    ] as const)
      for (let i = 0; i < n; i++) stats.recordMarkerExtracted(type);
    for (let i = 0; i < 52; i++) stats.recordLLMCall(100, 0.42 / 52);
    stats.setIncremental({
      mode: 'incremental',
      reason: '13 of 48 segments affected',
      segmentsSkipped: 35,
      segmentsUpdated: 8,
      segmentsAdded: 5,
      segmentsRemoved: 0,
      promptsAdded: 9,
      promptsModified: 4,
      promptsRemoved: 0,
    });
    stats.recordError('parse', new Error('prompt without an id'), 'p7');
    clock += 44_000;
    const s = stats.finalize();
    expect(s).toMatchObject({
      duration: 45_200,
      promptsProcessed: 1234,
      segmentsGenerated: 48,
      markersExtracted: 156,
      markersByType: { decision: 23, bug: 45, todo: 67, ref: 21 },
    });
    expect(s.llmCalls).toMatchObject({ count: 52, totalTokens: 5200 });
    expect(s.errors).toEqual([{ phase: 'parse', message: 'prompt without an id', promptId: 'p7' }]);
    expect(formatSummary(s)).toBe(`[RLM Index Generator] Processing Complete
─────────────────────────────────────────
  Duration:           45.2s
    - parse:     1.2s
  Prompts Processed:  1,234
  Segments Generated: 48
  Markers Extracted:  156
    - todo: 67
    - bug: 45
    - decision: 23
    - ref: 21

  LLM Calls:          52
  Estimated Cost:     $0.42

  Incremental Stats (incremental: 13 of 48 segments affected):
    - Skipped:  35 segments (unchanged)
    - Updated:  8 segments
    - Added:    5 segments

  Errors: 1
    - [parse] p7: prompt without an id
─────────────────────────────────────────`);
    const lines: string[] = [];
    stats.logSummary({ info: (l) => lines.push(l) });
    expect(lines.join('\n')).toBe(formatSummary(s));
  });

  it('reports phases, counts, markers by type, LLM calls, incremental stats and malformed entries', async () => {
    const dir = tempDir();
    const history = join(dir, 'history.json');
    writeFileSync(
      history,
      JSON.stringify({
        branches: {
          main: {
            prompts: [
              {
                id: 'a',
                parentId: null,
                content: '@/decision: one store\n@/bug: lock leak',
                timestamp: 1000,
                response: { content: '@/todo: test it' },
              },
              { id: 'b', parentId: 'a', content: 'next', timestamp: 2000 },
              { content: 'no id' },
            ],
          },
        },
      }),
    );
    const { stats } = await generateHistoryIndex({
      source: { kind: 'puffin-file', path: history },
      outputPath: join(dir, 'i.json'),
      runner: countingRunner().runner(),
    });
    expect(Object.keys(stats.phases)).toEqual(['parse', 'markers', 'segment', 'summarize', 'write']);
    expect(stats).toMatchObject({
      promptsProcessed: 2,
      segmentsGenerated: 1,
      markersExtracted: 3,
      markersByType: { decision: 1, bug: 1, todo: 1 },
    });
    expect(stats.llmCalls).toMatchObject({
      count: 1,
      estimatedCost: 0,
      provider: 'extractive',
      model: 'extractive-v1',
    });
    expect(stats.incrementalStats).toMatchObject({
      mode: 'full',
      reason: 'no existing index',
      segmentsAdded: 1,
      segmentsSkipped: 0,
    });
    expect(stats.errors).toEqual([{ phase: 'parse', message: 'prompt without an id (branch main, entry 3)' }]);
    expect(JSON.parse(JSON.stringify(stats))).toEqual(stats);
    const text = formatSummary(stats);
    for (const label of [
      'Duration:',
      '- parse:',
      '- summarize:',
      'Prompts Processed:  2',
      'Segments Generated: 1',
      'Markers Extracted:  3',
      '- decision: 1',
      'LLM Calls:          1 (extractive/extractive-v1)',
      'Estimated Cost:     $0.00',
      'Added:    1 segments',
      'Errors: 1',
    ]) {
      expect(text).toContain(label);
    }
  });
});
