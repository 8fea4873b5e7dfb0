// Owns the history index pipeline: lock `<out>.lock` → read the existing index
// → quick unchanged check (content hash) → parse → markers → hash + segment → plan (incremental or full)
// → summarize the planned segments → assemble → validate + atomic write → statistics. Collaborators
// (runner, write function, clock) come in as parameters so tests swap them without module mocks.
import { existsSync } from 'node:fs';
import {
  acquireLock as defaultAcquireLock,
  describeHolder,
  type LockOptions,
  type Lock,
} from '../../shared/file-lock.js';
import { sha256 } from '../../shared/hash.js';
import type { Store } from '../../store/db.js';
import type { LlmRunner } from '../llm/index.js';
import { ContentSegmenter } from './content-segmenter.js';
import { hashFile } from './file-hash.js';
import { hashSegment } from './hash-calculator.js';
import { HistoryParser } from './history-parser.js';
import { IncrementalUpdater } from './incremental-updater.js';
import { INDEX_VERSION, IndexSerializer, type WriteFile } from './index-serializer.js';
import { MarkerExtractor } from './marker-extractor.js';
import { ProcessingStats, type Phase, type ProcessingStatistics, type RunMode } from './processing-stats.js';
import { parseStoreHistory, type StoreSelection } from './store-history.js';
import { redactBranchNames } from './redact-history.js';
import { streamSegmentTexts } from './segment-texts.js';
import { FirstRead } from './first-read.js';
import { assemble } from './index-assembly.js';
import { withBoundedHeapGrowth } from './heap-growth.js';
import { SummaryGenerator } from './summary-generator.js';
import { HistoryCorpus } from './history-corpus.js';
import { NO_WORK_SUMMARY } from '../llm/extractive/summarize.js';
import { dropUbiquitousTopics, rankingScore, specificTopics, spreadImportance } from './extractive-refine.js';
import {
  silentLogger,
  type HistoryIndex,
  type IndexMarker,
  type Logger,
  type MarkerConfig,
  type ParsedHistory,
  type Segment,
  type SegmentationConfig,
  type SegmentSummary,
  type UpdatePlan,
} from './types.js';
import { StrataError } from '../../shared/errors.js';
import { releaseTokenizer } from '../../shared/tokenizer.js';

/** Version of the turn rendering (token counts and summaries depend on it). */
const TURN_FORMAT = 'turn@2';

export type HistorySourceOption =
  | { kind: 'puffin-file'; path: string }
  | { kind: 'store'; store: Store; selection: StoreSelection };

export interface GenerateOptions {
  source: HistorySourceOption;
  outputPath: string;
  runner: LlmRunner;
  /** --full: summarize every segment again. */
  full?: boolean;
  markerConfig?: MarkerConfig;
  segmentConfig?: Partial<SegmentationConfig>;
  /** Replaces the default summary prompt template. */
  summaryTemplate?: string;
  logger?: Logger;
  onProgress?: (phase: Phase, done: number, total: number) => void;
  streamThresholdBytes?: number;
  lockTimeoutMs?: number;
}

export interface GenerateDeps {
  writeFile?: WriteFile;
  now?: () => Date;
  acquireLock?: (path: string, options: LockOptions) => Lock;
}

export interface GenerateResult {
  index: HistoryIndex;
  stats: ProcessingStatistics;
  mode: RunMode;
  plan: UpdatePlan | null;
  /** False when nothing was written (unchanged history, or a missing history file). */
  written: boolean;
  outputPath: string;
}

function markerConfigKey(config: MarkerConfig): string {
  return JSON.stringify([
    config.contextLines,
    config.patterns.map((p) => [p.type, p.regex.source, p.regex.flags, p.priority]),
  ]);
}

export async function generateHistoryIndex(options: GenerateOptions, deps: GenerateDeps = {}): Promise<GenerateResult> {
  const logger = options.logger ?? silentLogger;
  const lock = (deps.acquireLock ?? defaultAcquireLock)(`${options.outputPath}.lock`, {
    timeoutMs: options.lockTimeoutMs ?? 30_000,
    command: 'strata history-index',
    onWait: (holder) =>
      logger.warn(
        `waiting for ${options.outputPath}.lock, held by ${describeHolder(holder)} (up to ` +
          `${Math.round((options.lockTimeoutMs ?? 30_000) / 1000)} s)`,
      ),
  });
  try {
    return await withBoundedHeapGrowth(() => runLocked(options, deps, logger));
  } finally {
    lock.release();
  }
}

async function runLocked(options: GenerateOptions, deps: GenerateDeps, logger: Logger): Promise<GenerateResult> {
  const stats = new ProcessingStats();
  const started = performance.now();
  const now = deps.now ?? (() => new Date());
  const progress = options.onProgress ?? (() => {});
  const markerConfig = options.markerConfig ?? MarkerExtractor.getDefaultConfig();
  const segmenter0 = new ContentSegmenter(options.segmentConfig);
  const generator = new SummaryGenerator({
    runner: options.runner,
    maxContentTokens: segmenter0.config.maxTokensPerSegment,
    ...(options.summaryTemplate ? { template: options.summaryTemplate } : {}),
  });
  const provider = options.runner.provider;
  const summaryFingerprint = sha256(
    JSON.stringify([
      INDEX_VERSION.split('.')[0],
      TURN_FORMAT,
      provider.name,
      provider.model,
      generator.templateVersion,
      segmenter0.config,
    ]),
  );
  const generatorInfo = {
    provider: provider.name,
    model: provider.model,
    templateVersion: generator.templateVersion,
    summaryFingerprint,
    configFingerprint: sha256(`${summaryFingerprint}\u0000${markerConfigKey(markerConfig)}`),
  };

  let existing: HistoryIndex | null = null;
  try {
    existing = await IndexSerializer.readIndex(options.outputPath);
  } catch (error) {
    logger.warn(`ignoring the existing index (a full reindex follows): ${(error as Error).message}`);
    stats.recordError('read', error);
  }
  const reusable =
    existing !== null &&
    !options.full &&
    existing.generator?.configFingerprint === generatorInfo.configFingerprint &&
    !existing.segments.some((s) => s.stale);
  const unchanged = (index: HistoryIndex): GenerateResult => {
    stats.recordPromptProcessed(index.statistics.totalPrompts);
    stats.recordSegmentGenerated(index.segments.length);
    for (const m of index.markers) stats.recordMarkerExtracted(m.type);
    stats.recordLlmRun({
      ...options.runner.stats(),
      calls: 0,
      localAnswers: 0,
      inputTokens: 0,
      outputTokens: 0,
      estimatedCostUsd: 0,
      cacheHits: 0,
      fallbacks: 0,
    });
    const skipped = index.segments.length;
    stats.setIncremental({
      mode: 'unchanged',
      reason: 'content hash unchanged',
      segmentsSkipped: skipped,
      segmentsUpdated: 0,
      segmentsAdded: 0,
      segmentsRemoved: 0,
      promptsAdded: 0,
      promptsModified: 0,
      promptsRemoved: 0,
    });
    return {
      index,
      stats: stats.finalize(),
      mode: 'unchanged',
      plan: null,
      written: false,
      outputPath: options.outputPath,
    };
  };

  // Quick change detection: the history file's bytes hash to the indexed contentHash → nothing to do.
  const source = options.source;
  const fileHash = source.kind === 'puffin-file' && existsSync(source.path) ? await hashFile(source.path) : undefined;
  if (
    reusable &&
    fileHash !== undefined &&
    existing!.source?.kind === 'puffin-file' &&
    fileHash === existing!.contentHash
  )
    return unchanged(existing!);

  // One read takes each prompt's hash, token count, markers and corpus counts; for a Puffin file the
  // texts are then dropped and streamed again (never JSON.parse: that would hold the whole document
  // while summarizing) segment by segment.
  const corpus = new HistoryCorpus();
  const firstRead = new FirstRead(
    new MarkerExtractor(markerConfig),
    corpus,
    existing?.prompts ?? {},
    source.kind === 'puffin-file',
  );
  const { visit, prompts, promptHashes, markersOf } = firstRead;

  stats.startPhase('parse');
  progress('parse', 0, 1);
  const threshold =
    options.streamThresholdBytes !== undefined ? { streamThresholdBytes: options.streamThresholdBytes } : {};
  let history: ParsedHistory;
  if (source.kind === 'puffin-file') {
    history = await new HistoryParser(source.path, {
      logger,
      visit,
      ...threshold,
      ...(fileHash !== undefined ? { contentHash: fileHash } : {}),
    }).parse();
  } else {
    history = parseStoreHistory(source.store.db, source.store.path, source.selection);
    for (const list of history.branches.values()) for (const p of list) visit(p);
  }
  redactBranchNames(history);
  // Every count the run needs is taken: the tokenizer's tables would stay live through summarizing.
  releaseTokenizer();
  stats.endPhase('parse');
  progress('parse', 1, 1);
  for (const issue of history.issues)
    stats.recordError(
      'parse',
      issue.reason +
        (issue.branchId ? ` (branch ${issue.branchId}${issue.index ? `, entry ${issue.index}` : ''})` : ''),
      issue.promptId,
    );
  stats.recordPromptProcessed(history.totalPrompts);
  if (
    source.kind === 'puffin-file' &&
    history.totalPrompts === 0 &&
    history.issues.some((i) => i.reason.startsWith('not a Puffin history'))
  ) {
    throw new StrataError('USAGE', `${source.path} is not a Puffin history (no top-level "branches" object)`);
  }
  if (history.source.missing) {
    stats.recordError('parse', `history file not found: ${history.source.path}`);
    // Spec: a missing history gives an empty, valid index; an index already there is kept as it is.
    if (existing)
      return {
        index: existing,
        stats: stats.finalize(),
        mode: 'unchanged',
        plan: null,
        written: false,
        outputPath: options.outputPath,
      };
    const empty = assemble({ history, markers: [], segments: [], prompts: {}, stats: 0, started, now, generatorInfo });
    await IndexSerializer.writeIndex(empty, options.outputPath, deps.writeFile);
    return {
      index: empty,
      stats: stats.finalize(),
      mode: 'full',
      plan: null,
      written: true,
      outputPath: options.outputPath,
    };
  }
  if (reusable && source.kind === 'store' && existing!.contentHash === history.source.contentHash)
    return unchanged(existing!);

  stats.startPhase('markers');
  const markers: IndexMarker[] = [];
  for (const list of history.branches.values()) {
    for (const p of list) {
      for (const m of markersOf.get(p.id) ?? []) {
        stats.recordMarkerExtracted(m.type);
        markers.push(m);
      }
    }
  }
  stats.endPhase('markers');
  progress('markers', history.totalPrompts, history.totalPrompts);

  stats.startPhase('segment');
  const segmenter = new ContentSegmenter(options.segmentConfig, { tokensOf: (p) => prompts[p.id]!.tokens });
  const segments = segmenter.segment(history);
  for (const s of segments) s.hash = hashSegment(s, history, promptHashes);
  stats.recordSegmentGenerated(segments.length);
  const updater = new IncrementalUpdater(existing, { summaryFingerprint, force: Boolean(options.full) });
  const current = { segments, promptHashes };
  const plan = updater.planUpdate(current);
  stats.endPhase('segment');
  progress('segment', segments.length, segments.length);

  stats.startPhase('summarize');
  const offline = provider.name === 'extractive';
  const refine = (summary: SegmentSummary, content: string): SegmentSummary => ({
    ...summary,
    // A segment with no work (only limit replies or pasted instructions) gets no topics either.
    topics: summary.summary.startsWith(NO_WORK_SUMMARY) ? [] : specificTopics(content, corpus, summary.topics),
    rawImportance: rankingScore(summary.importanceScore, content),
  });
  const streamTexts =
    source.kind === 'puffin-file'
      ? (pending: Segment[], batchSize: number, run: (batch: Segment[]) => Promise<void>) =>
          streamSegmentTexts(source.path, history, pending, batchSize, run, { streamThresholdBytes: 0 })
      : undefined;
  const result = await updater.executeUpdate(plan, current, {
    history,
    segmenter,
    generator,
    corpus,
    ...(offline ? { refine } : {}),
    ...(streamTexts ? { streamTexts } : {}),
    onProgress: (done, total) => progress('summarize', done, total),
  });
  if (offline) {
    dropUbiquitousTopics(result.segments);
    spreadImportance(result.segments);
  }
  stats.endPhase('summarize');
  const llm = options.runner.stats();
  stats.recordLlmRun(llm);
  for (const f of result.fallbacks)
    stats.recordError('summarize', `segment ${f.segmentId}: ${f.error} (extractive summary kept, retried next run)`);
  if (result.budgetStopped)
    logger.warn(
      `${result.budgetStopped}; ${result.fallbacks.length} segments keep an extractive stand-in and are summarized ` +
        `on the next run`,
    );
  const mode: RunMode = plan.fullReindex
    ? 'full'
    : plan.estimatedCost + plan.segmentsToRemove.length === 0
      ? 'unchanged'
      : 'incremental';
  stats.setIncremental({
    mode,
    reason: plan.reason,
    segmentsSkipped: plan.segmentsUnchanged.length,
    segmentsUpdated: plan.segmentsToUpdate.length,
    segmentsAdded: plan.segmentsToAdd.length,
    segmentsRemoved: plan.segmentsToRemove.length,
    promptsAdded: plan.promptChanges.added.length,
    promptsModified: plan.promptChanges.modified.length,
    promptsRemoved: plan.promptChanges.removed.length,
  });

  const index = assemble({
    history,
    markers,
    segments: result.segments,
    prompts,
    stats: llm.calls + llm.localAnswers,
    started,
    now,
    generatorInfo,
  });
  stats.startPhase('write');
  progress('write', 0, 1);
  try {
    await IndexSerializer.writeIndex(index, options.outputPath, deps.writeFile);
  } catch (error) {
    stats.recordError('write', error);
    throw error;
  } finally {
    stats.endPhase('write');
  }
  progress('write', 1, 1);
  return { index, stats: stats.finalize(), mode, plan, written: true, outputPath: options.outputPath };
}
