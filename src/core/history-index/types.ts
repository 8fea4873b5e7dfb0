// Owns the data shapes of the history index pipeline: parsed
// history, markers, segments, summaries, the update plan and the HistoryIndex file. Types only.

export interface ParsedResponse {
  content: string;
  sessionId: string;
  cost: number;
  turns: number;
  /** Milliseconds. */
  duration: number;
  /** Epoch milliseconds (0 when unknown). */
  timestamp: number;
}

export interface ParsedPrompt {
  id: string;
  branchId: string;
  parentId: string | null;
  content: string;
  /** Epoch milliseconds (0 when unknown). */
  timestamp: number;
  response: ParsedResponse | null;
  children: string[];
  /** Distance from the conversation root (0 for a root). */
  depth: number;
  title?: string;
}

/** A malformed entry that was skipped (or kept with a problem), logged with where it was. */
export interface HistoryIssue {
  reason: string;
  branchId?: string;
  /** 1-based position of the entry in its branch's prompts array (Puffin) or message seq (store). */
  index?: number;
  promptId?: string;
}

export type HistorySourceKind = 'puffin-file' | 'store';

export interface HistorySourceInfo {
  kind: HistorySourceKind;
  /** The history file, or the store file for store sessions. */
  path: string;
  /** puffin-file: SHA-256 of the file bytes; store: SHA-256 over the prompt hashes. '' when missing. */
  contentHash: string;
  /** True when the history file does not exist (a warning, and an empty index). */
  missing?: boolean;
  /** store: how the sessions were chosen. */
  selection?: { project?: string; sessions?: string[] };
}

export interface ParsedHistory {
  branches: Map<string, ParsedPrompt[]>;
  totalPrompts: number;
  dateRange: { earliest: number; latest: number };
  /** Branch display names when the source has them. */
  branchNames: Map<string, string>;
  issues: HistoryIssue[];
  source: HistorySourceInfo;
}

export interface ExtractedMarker {
  type: string;
  content: string;
  sourcePromptId: string;
  sourceField: 'prompt' | 'response';
  /** 1-based line within the source text. */
  lineNumber: number;
  context: { before: string; after: string };
  priority: number;
}

export interface MarkerPattern {
  type: string;
  regex: RegExp;
  priority: number;
  description?: string;
}

export interface MarkerConfig {
  patterns: MarkerPattern[];
  /** Lines of context captured before and after a marker. */
  contextLines: number;
}

export interface SegmentationConfig {
  /** Default 50,000 (tokens of the one tokenizer module). */
  maxTokensPerSegment: number;
  /** Tokens of trailing turns repeated (as context) at the start of the next part of a split conversation. */
  segmentOverlap: number;
  /** Break only at conversation roots (whole conversations per segment) unless a conversation is too big. */
  preferNaturalBoundaries: boolean;
  /**
   * Natural boundaries: average number of whole conversations packed into one segment. The boundary is
   * content-defined (a conversation whose root id hashes to 0 mod this closes the segment) so editing
   * or appending never shifts later boundaries. 1 = one segment per conversation.
   */
  conversationsPerSegment: number;
}

export interface Segment {
  id: string;
  promptIds: string[];
  /** Trailing turns of the previous part repeated for context (split conversations only). */
  overlapPromptIds: string[];
  tokenCount: number;
  startTimestamp: number;
  endTimestamp: number;
  branchId: string;
  /** SHA-256 over the hashes of its prompts and overlap prompts (set by the pipeline). */
  hash: string;
}

export interface SegmentSummary {
  segmentId: string;
  summary: string;
  topics: string[];
  importanceScore: number;
  keyEntities: string[];
  /** The offline summarizer's own score, kept so importance can be spread over all segments. */
  rawImportance?: number;
}

export interface UpdatePlan {
  segmentsToAdd: string[];
  segmentsToUpdate: string[];
  segmentsToRemove: string[];
  /** Segments whose summary is reused from the existing index. */
  segmentsUnchanged: string[];
  /** Estimated LLM calls (one per segment summarized). */
  estimatedCost: number;
  /** Prompt-level changes between the existing index and the current history. */
  promptChanges: { added: string[]; modified: string[]; removed: string[] };
  fullReindex: boolean;
  reason: string;
}

export interface IndexSegment {
  id: string;
  promptIds: string[];
  summary: string;
  topics: string[];
  importanceScore: number;
  keyEntities: string[];
  tokenCount: number;
  hash: string;
  branchId?: string;
  overlapPromptIds?: string[];
  startTimestamp?: number;
  endTimestamp?: number;
  /** model: summarized by the provider; fallback: extractive answer after a failure or budget stop. */
  summarySource?: 'model' | 'cache' | 'fallback';
  /** True when the summary must be regenerated on the next run (failure or budget stop). */
  stale?: boolean;
  /** The offline summarizer's own score; importanceScore spreads it by rank over all segments. */
  rawImportance?: number;
}

export interface IndexMarker {
  type: string;
  content: string;
  promptId: string;
  sourceField: 'prompt' | 'response';
  importance: number;
  lineNumber?: number;
  context?: { before: string; after: string };
  branchId?: string;
  /** ISO 8601 time of the prompt, when known. */
  timestamp?: string;
}

export interface HistoryIndex {
  version: string;
  generatedAt: string;
  historyFile: string;
  contentHash: string;
  segments: IndexSegment[];
  markers: IndexMarker[];
  topicIndex: Record<string, string[]>;
  statistics: {
    totalPrompts: number;
    totalSegments: number;
    totalMarkers: number;
    processingTimeMs: number;
    llmCallCount: number;
  };
  /** What produced the index: summaries are reused only while `summaryFingerprint` is unchanged. */
  generator?: {
    provider: string;
    model: string;
    templateVersion: string;
    summaryFingerprint: string;
    configFingerprint: string;
  };
  source?: HistorySourceInfo;
  /** Per prompt: its content hash and token count (incremental updates and token-count reuse). */
  prompts?: Record<string, { hash: string; tokens: number }>;
  dateRange?: { earliest: number; latest: number };
}

/** Where progress and warnings go (the CLI passes a stderr logger; the core never prints). */
export interface Logger {
  info(line: string): void;
  warn(line: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {} };
