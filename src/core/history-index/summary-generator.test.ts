// AC 3 (SummaryGenerator): summaries through the provider layer with the spec's prompt template, 4 in
// parallel; retries, invalid-JSON fallback, failures kept as stale extractive stand-ins; response cache.
import { describe, expect, it } from 'vitest';
import { finishReply } from '../llm/providers/finish-reply.js';
import {
  createExtractiveProvider,
  createMemoryCache,
  LlmProviderError,
  LlmRunner,
  type LlmProvider,
  type LlmRequest,
} from '../llm/index.js';
import { ContentSegmenter, HistoryParser, SummaryGenerator } from './index.js';
import { PUFFIN_FIXTURES } from '../../../test/support/history-index-fixtures.js';

type Script = (request: LlmRequest, call: number) => Promise<string>;

function scripted(script: Script): { provider: LlmProvider; requests: LlmRequest[]; maxInFlight: () => number } {
  const requests: LlmRequest[] = [];
  let inFlight = 0;
  let max = 0;
  const provider: LlmProvider = {
    name: 'anthropic',
    model: 'claude-haiku-4-5',
    networked: true,
    async complete(request) {
      requests.push(request);
      inFlight++;
      max = Math.max(max, inFlight);
      try {
        const text = await script(request, requests.length);
        return finishReply('anthropic', 'claude-haiku-4-5', request, {
          text,
          usage: { inputTokens: 100, outputTokens: 20 },
        });
      } finally {
        inFlight--;
      }
    },
  };
  return { provider, requests, maxInFlight: () => max };
}

const good = JSON.stringify({
  summary: 'Set up the store. Added a migration.',
  topics: ['Storage', 'migration', 'storage'],
  keyEntities: ['src/store/db.ts'],
  importanceScore: 0.8,
});
const noSleep = async () => {};

describe('SummaryGenerator', () => {
  it('summarizes real segments through the extractive provider: summary, topics, entities, importance', async () => {
    const history = await new HistoryParser(PUFFIN_FIXTURES[0]!).parse();
    const segmenter = new ContentSegmenter();
    const segments = segmenter.segment(history);
    const generator = new SummaryGenerator({ runner: new LlmRunner({ provider: createExtractiveProvider() }) });
    const { outcomes } = await generator.generateBatch(
      segments.map((s) => ({ id: s.id, content: segmenter.getSegmentContent(s, history), tokenCount: s.tokenCount })),
    );
    expect(outcomes).toHaveLength(segments.length);
    for (const [i, o] of outcomes.entries()) {
      expect(o.summary.segmentId).toBe(segments[i]!.id);
      expect(o.summary.summary.length).toBeGreaterThan(20);
      expect(o.summary.summary.length).toBeLessThanOrEqual(1000);
      expect(o.summary.topics.length).toBeGreaterThanOrEqual(1);
      expect(Array.isArray(o.summary.keyEntities)).toBe(true);
      expect(o.summary.importanceScore).toBeGreaterThan(0);
      expect(o.summary.importanceScore).toBeLessThanOrEqual(1);
      expect(o).toMatchObject({ source: 'model', stale: false });
    }
    const single = await generator.generateSummary(segmenter.getSegmentContent(segments[0]!, history), segments[0]!.id);
    expect(single).toEqual(outcomes[0]!.summary);
  });

  it('sends the spec prompt template (1000-token reply cap) and runs 4 segments in parallel', async () => {
    const s = scripted(async () => {
      await new Promise((r) => setTimeout(r, 15));
      return good;
    });
    const generator = new SummaryGenerator({ runner: new LlmRunner({ provider: s.provider }) });
    const items = Array.from({ length: 10 }, (_, i) => ({
      id: `seg-${i}`,
      content: `User: question ${i}\nAssistant: answer ${i}`,
    }));
    const { outcomes } = await generator.generateBatch(items);
    expect(s.maxInFlight()).toBe(4);
    expect(s.requests).toHaveLength(10);
    const r = s.requests[0]!;
    expect(r.prompt).toContain(
      'Given the following conversation segment from a software development project:\n\n<segment>\nUser: question 0',
    );
    expect(r.prompt).toContain('4. "importanceScore": A score from 0.0 to 1.0 based on:');
    expect(r.prompt.trimEnd().endsWith('Respond ONLY with valid JSON.')).toBe(true);
    expect(r).toMatchObject({ maxTokens: 1000, task: 'segment-summary', templateVersion: 'segment-summary@1' });
    expect(outcomes[3]!.summary).toEqual({
      segmentId: 'seg-3',
      summary: 'Set up the store. Added a migration.',
      topics: ['storage', 'migration'],
      keyEntities: ['src/store/db.ts'],
      importanceScore: 0.8,
    });
  });

  it('retries transient failures; invalid JSON gets one repair then the extractive fallback', async () => {
    const flaky = scripted(async (_r, call) => {
      if (call <= 2) throw new LlmProviderError('server', 'HTTP 503');
      return good;
    });
    const one = await new SummaryGenerator({
      runner: new LlmRunner({ provider: flaky.provider, sleep: noSleep }),
    }).generateBatch([{ id: 'a', content: 'x' }]);
    expect(flaky.requests).toHaveLength(3);
    expect(one.outcomes[0]).toMatchObject({ source: 'model', stale: false });

    const garbage = scripted(async () => 'not json at all');
    const two = await new SummaryGenerator({
      runner: new LlmRunner({ provider: garbage.provider, sleep: noSleep }),
    }).generateBatch([
      { id: 'b', content: '@/decision: keep SQLite.\nWe chose SQLite for the store because it is embedded.' },
    ]);
    expect(garbage.requests).toHaveLength(2);
    expect(two.outcomes[0]).toMatchObject({ source: 'fallback', stale: false });
    expect(two.outcomes[0]!.summary.summary).toMatch(/SQLite/);
  });

  it('a segment whose calls all fail keeps an extractive stand-in marked stale, with the error', async () => {
    const down = scripted(async () => {
      throw new LlmProviderError('server', 'HTTP 500 boom');
    });
    // The CLI's runner retries up to 3 times (4 attempts), as the spec's error table asks.
    const result = await new SummaryGenerator({
      runner: new LlmRunner({ provider: down.provider, sleep: noSleep, attempts: 4 }),
    }).generateBatch([{ id: 'c', content: 'We fixed the parser bug in src/parser.ts.' }]);
    expect(down.requests).toHaveLength(4);
    expect(result.outcomes[0]).toMatchObject({ source: 'fallback', stale: true });
    expect(result.outcomes[0]!.error).toMatch(/HTTP 500 boom/);
    expect(result.outcomes[0]!.summary.summary).toMatch(/parser/);
  });

  it('answers repeated content from the cache (no second call); custom templates change the version', async () => {
    const s = scripted(async () => good);
    const cache = createMemoryCache();
    const generator = new SummaryGenerator({ runner: new LlmRunner({ provider: s.provider, cache }) });
    await generator.generateBatch([{ id: 'a', content: 'same text' }]);
    const again = await generator.generateBatch([{ id: 'a', content: 'same text' }]);
    expect(s.requests).toHaveLength(1);
    expect(again.outcomes[0]!.source).toBe('cache');
    const custom = new SummaryGenerator({
      runner: new LlmRunner({ provider: s.provider }),
      template: 'Summarize as JSON: {content}',
    });
    expect(custom.templateVersion).toMatch(/^custom:/);
    expect(custom.buildRequest({ id: 'z', content: 'hello' }).prompt).toBe('Summarize as JSON: hello');
  });
});
