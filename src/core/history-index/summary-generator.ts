// Owns SummaryGenerator: segment summaries (summary, topics, keyEntities, importanceScore)
// through the LLM provider layer — the default prompt template (src/core/llm/prompts.ts), the runner's
// cache, retries with backoff, JSON repair + extractive fallback, concurrency 4 and spend guard. An item
// that still fails (or is not run after a budget stop) gets the extractive summary and is marked stale,
// so the next run summarizes it again.
import { describeError } from '../../shared/errors.js';
import { sha256 } from '../../shared/hash.js';
import { truncateToTokens } from '../../shared/tokenizer.js';
import {
  buildSegmentSummaryRequest,
  fillTemplate,
  summarizeSegment,
  SUMMARY_TEMPLATE_VERSION,
  type LlmRequest,
  type LlmRunner,
  type MapProgress,
  type SegmentSummary as LlmSegmentSummary,
} from '../llm/index.js';
import type { SegmentSummary } from './types.js';

export interface SummaryGeneratorOptions {
  runner: LlmRunner;
  /** Reply token cap (default 1000: a summary, a few tags and a score). */
  maxTokens?: number;
  /** Segment text above this many tokens is truncated before it is sent (default 50,000). */
  maxContentTokens?: number;
  /** Replaces the default template (must contain `{content}`); its hash becomes the template version. */
  template?: string;
}

export interface SummaryOutcome {
  summary: SegmentSummary;
  /** model: the provider answered; cache: the response cache did; fallback: the extractive answer stands in. */
  source: 'model' | 'cache' | 'fallback';
  /** True when the summary is a stand-in and must be regenerated next run. */
  stale: boolean;
  error?: string;
}

export interface BatchItem {
  id: string;
  content: string;
  /** Known token count of `content` (skips counting when below the cap). */
  tokenCount?: number;
}

export interface BatchResult {
  outcomes: SummaryOutcome[];
  /** Set when the spend guard stopped the run: items not run got stand-in summaries. */
  budgetStopped: string | null;
}

export class SummaryGenerator {
  readonly templateVersion: string;
  private readonly maxTokens: number;
  private readonly maxContentTokens: number;

  constructor(private readonly options: SummaryGeneratorOptions) {
    this.maxTokens = options.maxTokens ?? 1000;
    this.maxContentTokens = options.maxContentTokens ?? 50_000;
    this.templateVersion = options.template
      ? `custom:${sha256(options.template).slice(0, 12)}`
      : SUMMARY_TEMPLATE_VERSION;
  }

  buildRequest(item: BatchItem): LlmRequest<LlmSegmentSummary> {
    const content =
      item.tokenCount !== undefined && item.tokenCount <= this.maxContentTokens
        ? item.content
        : truncateToTokens(item.content, this.maxContentTokens);
    const request = buildSegmentSummaryRequest({ segmentId: item.id, content }, { maxTokens: this.maxTokens });
    if (!this.options.template) return request;
    return {
      ...request,
      prompt: fillTemplate(this.options.template, { content }),
      templateVersion: this.templateVersion,
    };
  }

  async generateSummary(segmentContent: string, segmentId: string): Promise<SegmentSummary> {
    const [outcome] = (await this.generateBatch([{ id: segmentId, content: segmentContent }])).outcomes;
    return outcome!.summary;
  }

  /** Same as generateSummary: an incremental update summarizes the segment's new content. */
  async regenerateSummary(segmentId: string, newContent: string): Promise<SegmentSummary> {
    return this.generateSummary(newContent, segmentId);
  }

  /** Summarizes many segments, up to the runner's concurrency (4) at a time, in input order. */
  async generateBatch(items: BatchItem[], onProgress?: (progress: MapProgress) => void): Promise<BatchResult> {
    const requests = items.map((item) => this.buildRequest(item));
    const outcome = await this.options.runner.map(requests, onProgress);
    const errors = new Map(outcome.failures.map((f) => [f.index, f.error.message] as const));
    const outcomes = items.map((item, i): SummaryOutcome => {
      const reply = outcome.results[i];
      if (reply?.json) {
        return { summary: { segmentId: item.id, ...normalize(reply.json) }, source: reply.source, stale: false };
      }
      const error = errors.get(i) ?? (outcome.budget ? `not summarized: ${describeError(outcome.budget)}` : 'no reply');
      return {
        summary: {
          segmentId: item.id,
          ...normalize(
            summarizeSegment(requests[i]!.input ? (requests[i]!.input as { content: string }).content : item.content),
          ),
        },
        source: 'fallback',
        stale: true,
        error,
      };
    });
    return { outcomes, budgetStopped: outcome.budget ? outcome.budget.message : null };
  }
}

/** Clamps a reply to the index schema: summary ≤ 1000 chars, score in [0, 1], de-duplicated tags. */
function normalize(reply: LlmSegmentSummary): Omit<SegmentSummary, 'segmentId'> {
  const tags = (list: string[]): string[] => [...new Set(list.map((t) => t.trim()).filter((t) => t !== ''))];
  const score = Number.isFinite(reply.importanceScore) ? Math.min(1, Math.max(0, reply.importanceScore)) : 0.5;
  return {
    summary: reply.summary.slice(0, 1000),
    topics: tags(reply.topics.map((t) => t.toLowerCase())),
    keyEntities: tags(reply.keyEntities),
    importanceScore: score,
  };
}
