// Owns ProcessingStats: counts and phase durations of one history-index run, the
// console summary (formatSummary / logSummary) and the same numbers as JSON (finalize).
import { groupDigits } from '../../shared/numbers.js';
import { describeError } from '../../shared/errors.js';
import type { Logger } from './types.js';

export type Phase = 'parse' | 'markers' | 'segment' | 'summarize' | 'write';
export type RunMode = 'full' | 'incremental' | 'unchanged';

export interface ProcessingStatistics {
  startTime: number;
  endTime: number;
  duration: number;
  /** Milliseconds spent in each phase that ran. */
  phases: Partial<Record<Phase, number>>;
  promptsProcessed: number;
  segmentsGenerated: number;
  markersExtracted: number;
  markersByType: Record<string, number>;
  llmCalls: {
    count: number;
    totalTokens: number;
    estimatedCost: number;
    cacheHits: number;
    fallbacks: number;
    provider: string;
    model: string;
  };
  incrementalStats?: {
    mode: RunMode;
    reason: string;
    segmentsSkipped: number;
    segmentsUpdated: number;
    segmentsAdded: number;
    segmentsRemoved: number;
    promptsAdded: number;
    promptsModified: number;
    promptsRemoved: number;
  };
  errors: Array<{ phase: string; message: string; promptId?: string }>;
}

const RULE = '─'.repeat(41);

export class ProcessingStats {
  private readonly stats: ProcessingStatistics;
  private readonly phaseStarts = new Map<Phase, number>();

  constructor(private readonly now: () => number = () => performance.timeOrigin + performance.now()) {
    this.stats = {
      startTime: now(),
      endTime: 0,
      duration: 0,
      phases: {},
      promptsProcessed: 0,
      segmentsGenerated: 0,
      markersExtracted: 0,
      markersByType: {},
      llmCalls: { count: 0, totalTokens: 0, estimatedCost: 0, cacheHits: 0, fallbacks: 0, provider: '', model: '' },
      errors: [],
    };
  }

  startPhase(phase: Phase): void {
    this.phaseStarts.set(phase, this.now());
  }

  endPhase(phase: Phase): void {
    const start = this.phaseStarts.get(phase);
    if (start !== undefined) this.stats.phases[phase] = (this.stats.phases[phase] ?? 0) + (this.now() - start);
  }

  recordPromptProcessed(count = 1): void {
    this.stats.promptsProcessed += count;
  }

  recordSegmentGenerated(count = 1): void {
    this.stats.segmentsGenerated += count;
  }

  recordMarkerExtracted(type: string): void {
    this.stats.markersExtracted++;
    this.stats.markersByType[type] = (this.stats.markersByType[type] ?? 0) + 1;
  }

  recordLLMCall(tokens: number, costUsd = 0): void {
    this.stats.llmCalls.count++;
    this.stats.llmCalls.totalTokens += tokens;
    this.stats.llmCalls.estimatedCost += costUsd;
  }

  /** Totals of the provider layer's run statistics (calls, tokens, cost, cache hits, fallbacks). */
  recordLlmRun(run: {
    provider: string;
    model: string;
    calls: number;
    localAnswers: number;
    inputTokens: number;
    outputTokens: number;
    estimatedCostUsd: number;
    cacheHits: number;
    fallbacks: number;
  }): void {
    const l = this.stats.llmCalls;
    l.provider = run.provider;
    l.model = run.model;
    l.count += run.calls + run.localAnswers;
    l.totalTokens += run.inputTokens + run.outputTokens;
    l.estimatedCost += run.estimatedCostUsd;
    l.cacheHits += run.cacheHits;
    l.fallbacks += run.fallbacks;
  }

  setIncremental(incremental: NonNullable<ProcessingStatistics['incrementalStats']>): void {
    this.stats.incrementalStats = incremental;
  }

  recordError(phase: string, error: unknown, promptId?: string): void {
    this.stats.errors.push({ phase, message: describeError(error), ...(promptId !== undefined ? { promptId } : {}) });
  }

  finalize(): ProcessingStatistics {
    this.stats.endTime = this.now();
    this.stats.duration = Math.max(0, Math.round(this.stats.endTime - this.stats.startTime));
    this.stats.startTime = Math.round(this.stats.startTime);
    this.stats.endTime = Math.round(this.stats.endTime);
    for (const phase of Object.keys(this.stats.phases) as Phase[])
      this.stats.phases[phase] = Math.round(this.stats.phases[phase]!);
    return structuredClone(this.stats);
  }

  logSummary(logger: Pick<Logger, 'info'>): void {
    for (const line of formatSummary(this.stats.endTime ? this.stats : this.finalize()).split('\n')) logger.info(line);
  }
}

const count = groupDigits;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const pad = (label: string): string => `  ${label.padEnd(20)}`;

/** The console summary printed after a run. */
export function formatSummary(s: ProcessingStatistics): string {
  const lines = ['[RLM Index Generator] Processing Complete', RULE];
  lines.push(`${pad('Duration:')}${seconds(s.duration)}`);
  for (const [phase, ms] of Object.entries(s.phases)) lines.push(`    - ${`${phase}:`.padEnd(10)} ${seconds(ms)}`);
  lines.push(`${pad('Prompts Processed:')}${count(s.promptsProcessed)}`);
  lines.push(`${pad('Segments Generated:')}${count(s.segmentsGenerated)}`);
  lines.push(`${pad('Markers Extracted:')}${count(s.markersExtracted)}`);
  for (const [type, n] of Object.entries(s.markersByType).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])))
    lines.push(`    - ${type}: ${count(n)}`);
  lines.push('');
  const model = s.llmCalls.model && s.llmCalls.model !== s.llmCalls.provider ? `/${s.llmCalls.model}` : '';
  const provider = s.llmCalls.provider ? ` (${s.llmCalls.provider}${model})` : '';
  lines.push(`${pad('LLM Calls:')}${count(s.llmCalls.count)}${provider}`);
  if (s.llmCalls.cacheHits > 0) lines.push(`${pad('Cache Hits:')}${count(s.llmCalls.cacheHits)}`);
  if (s.llmCalls.fallbacks > 0) lines.push(`${pad('Fallbacks:')}${count(s.llmCalls.fallbacks)}`);
  lines.push(`${pad('Estimated Cost:')}$${s.llmCalls.estimatedCost.toFixed(2)}`);
  const inc = s.incrementalStats;
  if (inc) {
    lines.push('', `  Incremental Stats (${inc.mode}${inc.reason ? `: ${inc.reason}` : ''}):`);
    lines.push(`    - Skipped:  ${count(inc.segmentsSkipped)} segments (unchanged)`);
    lines.push(`    - Updated:  ${count(inc.segmentsUpdated)} segments`);
    lines.push(`    - Added:    ${count(inc.segmentsAdded)} segments`);
    if (inc.segmentsRemoved > 0) lines.push(`    - Removed:  ${count(inc.segmentsRemoved)} segments`);
  }
  lines.push('', `  Errors: ${count(s.errors.length)}`);
  for (const e of s.errors.slice(0, 5))
    lines.push(`    - [${e.phase}]${e.promptId ? ` ${e.promptId}:` : ''} ${e.message}`);
  if (s.errors.length > 5) lines.push(`    - … ${count(s.errors.length - 5)} more`);
  lines.push(RULE);
  return lines.join('\n');
}
