// Owns the index document built from a run's parts: segments, markers, the topic index, statistics and
// the generator fingerprints, in the field order the schema documents.
import { INDEX_VERSION } from './index-serializer.js';
import type { PromptEntries } from './first-read.js';
import type { HistoryIndex, IndexMarker, ParsedHistory } from './types.js';

export interface AssembleInput {
  history: ParsedHistory;
  markers: IndexMarker[];
  segments: HistoryIndex['segments'];
  prompts: PromptEntries;
  stats: number;
  started: number;
  now: () => Date;
  generatorInfo: NonNullable<HistoryIndex['generator']>;
}

export function assemble(input: AssembleInput): HistoryIndex {
  const topicIndex: Record<string, string[]> = {};
  for (const s of input.segments) for (const topic of s.topics) (topicIndex[topic] ??= []).push(s.id);
  return {
    version: INDEX_VERSION,
    generatedAt: input.now().toISOString(),
    historyFile: input.history.source.path,
    contentHash: input.history.source.contentHash,
    segments: input.segments,
    markers: input.markers,
    topicIndex,
    statistics: {
      totalPrompts: input.history.totalPrompts,
      totalSegments: input.segments.length,
      totalMarkers: input.markers.length,
      processingTimeMs: Math.max(0, Math.round(performance.now() - input.started)),
      llmCallCount: input.stats,
    },
    generator: input.generatorInfo,
    source: input.history.source,
    prompts: input.prompts,
    dateRange: input.history.dateRange,
  };
}
