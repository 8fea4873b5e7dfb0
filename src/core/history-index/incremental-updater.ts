// Owns IncrementalUpdater: compares the current segments (and prompt hashes) with the existing
// index, plans which segments to add / update / remove, chooses a full reindex when more than 50% of the
// segments are affected (or there is no usable previous index), and executes the plan: only the planned
// segments are summarized again, every other segment keeps its summary from the existing index.
import { detectChanges } from './hash-calculator.js';
import type { ContentSegmenter } from './content-segmenter.js';
import type { HistoryCorpus } from './history-corpus.js';
import type { SummaryGenerator, SummaryOutcome } from './summary-generator.js';
import type { HistoryIndex, IndexSegment, ParsedHistory, Segment, SegmentSummary, UpdatePlan } from './types.js';

/** More than this share of segments affected → full reindex (cheaper than tracking every change). */
export const FULL_REINDEX_RATIO = 0.5;
/** Segments whose text is built and summarized together (bounds memory on big histories). */
export const SUMMARY_BATCH_SIZE = 8;

export interface CurrentState {
  /** Current segments with their hashes set. */
  segments: Segment[];
  promptHashes: Map<string, string>;
}

export interface UpdaterOptions {
  /**
   * Fingerprint of what shapes summaries (provider, model, template, segmentation); a mismatch forces a full reindex.
   */
  summaryFingerprint?: string;
  /** --full: reindex everything. */
  force?: boolean;
}

export interface ExecuteContext {
  history: ParsedHistory;
  segmenter: ContentSegmenter;
  generator: SummaryGenerator;
  /** Cross-history statistics: boilerplate lines are left out of the text summarized. */
  corpus?: HistoryCorpus;
  /** Adjusts a fresh summary knowing the history (the offline provider's topics and raw score). */
  refine?: (summary: SegmentSummary, content: string) => SegmentSummary;
  batchSize?: number;
  /** Supplies the texts batch by batch (a second read of the history file) instead of from `history`. */
  streamTexts?: (pending: Segment[], batchSize: number, run: (batch: Segment[]) => Promise<void>) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
}

export interface ExecuteResult {
  segments: IndexSegment[];
  summarized: number;
  fallbacks: Array<{ segmentId: string; error: string }>;
  budgetStopped: string | null;
}

export class IncrementalUpdater {
  private readonly previous: Map<string, IndexSegment>;
  private readonly fullReason: string | undefined;

  constructor(
    private readonly existingIndex: HistoryIndex | null,
    options: UpdaterOptions = {},
  ) {
    this.previous = new Map((existingIndex?.segments ?? []).map((s) => [s.id, s] as const));
    if (!existingIndex) this.fullReason = 'no existing index';
    else if (options.force) this.fullReason = 'full reindex requested';
    else if (
      options.summaryFingerprint !== undefined &&
      existingIndex.generator?.summaryFingerprint !== options.summaryFingerprint
    ) {
      this.fullReason = 'the existing index was made with other settings (provider, model, template or segmentation)';
    }
  }

  planUpdate(current: CurrentState): UpdatePlan {
    const oldHashes = new Map(
      Object.entries(this.existingIndex?.prompts ?? {}).map(([id, p]) => [id, p.hash] as const),
    );
    const promptChanges = detectChanges(oldHashes, current.promptHashes);
    const currentIds = new Set(current.segments.map((s) => s.id));
    const segmentsToRemove = [...this.previous.keys()].filter((id) => !currentIds.has(id));
    const segmentsToAdd: string[] = [];
    const segmentsToUpdate: string[] = [];
    const segmentsUnchanged: string[] = [];
    for (const segment of current.segments) {
      const old = this.previous.get(segment.id);
      if (!old) segmentsToAdd.push(segment.id);
      else if (this.fullReason !== undefined || old.hash !== segment.hash || old.stale)
        segmentsToUpdate.push(segment.id);
      else segmentsUnchanged.push(segment.id);
    }
    const plan: UpdatePlan = {
      segmentsToAdd,
      segmentsToUpdate,
      segmentsToRemove,
      segmentsUnchanged,
      estimatedCost: segmentsToAdd.length + segmentsToUpdate.length,
      promptChanges,
      fullReindex: this.fullReason !== undefined,
      reason: this.fullReason ?? '',
    };
    if (plan.fullReindex) return plan;
    if (this.shouldFullReindex(plan, current.segments.length)) {
      const affected = segmentsToAdd.length + segmentsToUpdate.length + segmentsToRemove.length;
      return {
        ...plan,
        segmentsToUpdate: [...segmentsToUpdate, ...segmentsUnchanged],
        segmentsUnchanged: [],
        estimatedCost: current.segments.length,
        fullReindex: true,
        reason:
          `${affected} of ${Math.max(current.segments.length, 1)} segments affected (more than ` +
          `${FULL_REINDEX_RATIO * 100}%)`,
      };
    }
    const affected = plan.estimatedCost + segmentsToRemove.length;
    return {
      ...plan,
      reason: affected === 0 ? 'unchanged' : `${affected} of ${current.segments.length} segments affected`,
    };
  }

  /** More than 50% of the (current) segments added, modified or removed. */
  shouldFullReindex(
    plan: UpdatePlan,
    totalSegments = plan.segmentsToAdd.length + plan.segmentsToUpdate.length + plan.segmentsUnchanged.length,
  ): boolean {
    const affected = plan.segmentsToAdd.length + plan.segmentsToUpdate.length + plan.segmentsToRemove.length;
    return affected > FULL_REINDEX_RATIO * Math.max(totalSegments, 1);
  }

  /** Summarizes the planned segments (in batches) and returns every current segment in order. */
  async executeUpdate(plan: UpdatePlan, current: CurrentState, ctx: ExecuteContext): Promise<ExecuteResult> {
    const todo = new Set([...plan.segmentsToAdd, ...plan.segmentsToUpdate]);
    const pending = current.segments.filter((s) => todo.has(s.id));
    const outcomes = new Map<string, SummaryOutcome>();
    const batchSize = ctx.batchSize ?? SUMMARY_BATCH_SIZE;
    const fallbacks: ExecuteResult['fallbacks'] = [];
    let budgetStopped: string | null = null;
    let done = 0;
    ctx.onProgress?.(0, pending.length);
    const run = async (batch: Segment[]): Promise<void> => {
      const items = batch.map((s) => ({
        id: s.id,
        content: ctx.segmenter.getSegmentContent(s, ctx.history, ctx.corpus),
        tokenCount: s.tokenCount,
      }));
      const result = await ctx.generator.generateBatch(items, () => ctx.onProgress?.(++done, pending.length));
      result.outcomes.forEach((o, i) => {
        if (ctx.refine) o.summary = ctx.refine(o.summary, items[i]!.content);
        outcomes.set(o.summary.segmentId, o);
        if (o.stale) fallbacks.push({ segmentId: o.summary.segmentId, error: o.error ?? 'no reply' });
      });
      budgetStopped ??= result.budgetStopped;
      done = Math.max(done, outcomes.size);
      ctx.onProgress?.(done, pending.length);
    };
    if (ctx.streamTexts) await ctx.streamTexts(pending, batchSize, run);
    else
      for (let start = 0; start < pending.length; start += batchSize)
        await run(pending.slice(start, start + batchSize));
    const segments = current.segments.map((s): IndexSegment => {
      const base = {
        id: s.id,
        promptIds: s.promptIds,
        tokenCount: s.tokenCount,
        hash: s.hash,
        branchId: s.branchId,
        startTimestamp: s.startTimestamp,
        endTimestamp: s.endTimestamp,
      };
      const extra = s.overlapPromptIds.length > 0 ? { overlapPromptIds: s.overlapPromptIds } : {};
      const outcome = outcomes.get(s.id);
      if (outcome) {
        const { segmentId: _id, ...summary } = outcome.summary;
        return {
          ...base,
          ...extra,
          ...summary,
          summarySource: outcome.source,
          ...(outcome.stale ? { stale: true } : {}),
        };
      }
      const old = this.previous.get(s.id)!;
      const raw = old.rawImportance !== undefined ? { rawImportance: old.rawImportance } : {};
      return {
        ...base,
        ...extra,
        summary: old.summary,
        topics: old.topics,
        importanceScore: old.importanceScore,
        keyEntities: old.keyEntities ?? [],
        ...(old.summarySource ? { summarySource: old.summarySource } : {}),
        ...raw,
      };
    });
    return { segments, summarized: outcomes.size, fallbacks, budgetStopped };
  }
}
