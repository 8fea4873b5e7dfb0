// Owns the logbook loop (spec "Processing Loop", "Incremental Updates", "Parallel Processing", "Error
// Handling"): conversations oldest first, one provider call per chunk with the whole logbook so far,
// events normalised and merged, sorted, deduplicated and truncated; unchanged conversations skipped by
// fingerprint and processed chunks by hash; a failed conversation is logged, skipped and retried next run.
import type { Database } from 'better-sqlite3';
import { describeError } from '../../shared/errors.js';
import { sha256 } from '../../shared/hash.js';
import { isBudgetError, type LlmRunner } from '../llm/index.js';
import { buildLogbookRequest, LOGBOOK_TEMPLATE_VERSION } from '../llm/prompts.js';
import type { LogbookEvent, LogbookReply } from '../llm/task-schemas.js';
import { chunkConversation, chunkInput, DEFAULT_CHUNK_TOKENS, type Chunk } from './chunker.js';
import {
  listConversations,
  loadConversation,
  type ConversationHead,
  type WorkspaceSelection,
} from './conversations.js';
import { deduplicateTimeline, sortNewestFirst, truncateTimeline } from './dedupe.js';
import { dropSupersededDecisions } from './supersede.js';
import { emptyLogbook } from './document.js';
import { normalizeEvents, type NormalizeStats } from './event-normalize.js';
import {
  LOGBOOK_VERSION,
  silentLogbookLogger,
  type Conversation,
  type LogbookDocument,
  type LogbookLogger,
  type ProcessedSession,
  type TimelineEvent,
} from './types.js';

/** Version of the chunk rendering and event normalisation (part of the generator fingerprint). */
const CHUNK_FORMAT = 'logbook-chunk@2';
const DEFAULT_MAX_EVENTS = 100;
/** The offline extractor reads a conversation whole: a request and the edits that carry it out span many chunks. */
const EXTRACTIVE_CHUNK_TOKENS = 1_000_000;

/** The reply shape asked of the model; each event is then checked on its own, so one bad event costs one event. */
const REPLY_SHAPE: Record<string, unknown> = {
  type: 'object',
  required: ['events'],
  properties: { events: { type: 'array' } },
};

export interface BuildOptions {
  db: Database;
  workspace: string;
  selection: WorkspaceSelection;
  runner: LlmRunner;
  /** The logbook to continue (from the store or --continue-from); ignored when its generator differs or `full`. */
  previous?: LogbookDocument | undefined;
  full?: boolean;
  maxEvents?: number;
  chunkTokens?: number;
  /** Conversations per batch of the parallel variant; 1 (default) is the sequential loop. */
  parallel?: number;
  now?: () => Date;
  logger?: LogbookLogger;
  onProgress?: (done: number, total: number) => void;
}

export interface BuildResult {
  document: LogbookDocument;
  /** False when nothing was new: `document` is `previous`, untouched. */
  changed: boolean;
  conversations: number;
  processed: number;
  unchanged: number;
  empty: number;
  chunks: number;
  failed: Array<{ conversation: string; error: string }>;
  dropped: Record<string, number>;
  budgetStop: string | null;
}

interface Work {
  head: ConversationHead;
  conversation: Conversation;
  chunks: Chunk[];
  /** Chunks already processed by an earlier run (kept as processed). */
  done: string[];
}

/** A conversation read again in one chunk: its new events replace the ones an earlier run took from it. */
const readWhole = (w: Work): boolean =>
  w.done.length === 0 && w.chunks.length === 1 && w.chunks[0]!.messages.length === w.conversation.messages.length;

function generatorFor(runner: LlmRunner, chunkTokens: number): LogbookDocument['generator'] {
  const { name, model } = runner.provider;
  return {
    provider: name,
    model,
    template: LOGBOOK_TEMPLATE_VERSION,
    fingerprint: sha256(
      JSON.stringify([LOGBOOK_VERSION.split('.')[0], CHUNK_FORMAT, name, model, LOGBOOK_TEMPLATE_VERSION, chunkTokens]),
    ).slice(0, 32),
  };
}

function taskEvent(e: TimelineEvent): LogbookEvent {
  return {
    timestamp: e.timestamp,
    type: e.type,
    content: e.content,
    ...(e.rationale ? { rationale: e.rationale } : {}),
    ...(e.code ? { code: e.code } : {}),
    ...(e.resolution ? { resolution: e.resolution } : {}),
  };
}

function isoOrNull(value: string | null): string | null {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

export async function buildLogbook(options: BuildOptions): Promise<BuildResult> {
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? silentLogbookLogger;
  const chunkTokens =
    options.chunkTokens ??
    (options.runner.provider.name === 'extractive' ? EXTRACTIVE_CHUNK_TOKENS : DEFAULT_CHUNK_TOKENS);
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const generator = generatorFor(options.runner, chunkTokens);
  const previous =
    options.previous &&
    !options.full &&
    options.previous.generator.fingerprint === generator.fingerprint &&
    options.previous.workspace === options.workspace
      ? options.previous
      : undefined;
  const heads = listConversations(options.db, options.selection);
  const failedBefore = new Set(previous?.failed ?? []);
  const sessions: Record<string, ProcessedSession> = {};
  const work: Work[] = [];
  let unchanged = 0;
  let empty = 0;
  let touched = false;
  for (const head of heads) {
    const before = previous?.sessions[head.id];
    if (before && before.fingerprint === head.fingerprint && !failedBefore.has(head.id)) {
      sessions[head.id] = before;
      unchanged++;
      continue;
    }
    touched = true;
    const conversation = loadConversation(options.db, head);
    const chunks = chunkConversation(conversation, chunkTokens);
    const seen = new Set(before?.chunks ?? []);
    const done = chunks.filter((c) => seen.has(c.hash)).map((c) => c.hash);
    const todo = chunks.filter((c) => !seen.has(c.hash));
    if (conversation.messages.length === 0) empty++;
    if (todo.length === 0) {
      sessions[head.id] = { fingerprint: head.fingerprint, chunks: done, started_at: head.startedAt ?? '' };
      continue;
    }
    work.push({ head, conversation, chunks: todo, done });
  }
  if (previous && !touched && heads.length === Object.keys(previous.sessions).length) {
    return {
      document: previous,
      changed: false,
      conversations: heads.length,
      processed: 0,
      unchanged,
      empty,
      chunks: 0,
      failed: [],
      dropped: {},
      budgetStop: null,
    };
  }

  const starts = heads
    .map((h) => isoOrNull(h.startedAt))
    .filter((s): s is string => s !== null)
    .sort();
  let timeline: TimelineEvent[] = previous ? [...previous.timeline] : [];
  let asOf = previous?.source_range.to ?? starts[0] ?? now().toISOString();
  const stats: NormalizeStats = { kept: 0, dropped: {} };
  const failed: BuildResult['failed'] = [];
  const total = work.reduce((n, w) => n + w.chunks.length, 0);
  let doneChunks = 0;
  let budgetStop: string | null = null;
  const batchSize = Math.max(1, Math.floor(options.parallel ?? 1));

  /** One conversation's chunks in order, each seeing `base` plus the events of the chunks before it. */
  const runConversation = async (
    w: Work,
    base: readonly TimelineEvent[],
    generatedAt: string,
  ): Promise<TimelineEvent[]> => {
    const added: TimelineEvent[] = [];
    const processed = [...w.done];
    try {
      for (const chunk of w.chunks) {
        const input = {
          ...chunkInput(w.conversation, chunk.messages),
          workspace: options.workspace,
          generatedAt,
          existingEvents: [...base, ...added].map(taskEvent),
        };
        const request = { ...buildLogbookRequest(input), json: REPLY_SHAPE, id: `${w.head.id}#${chunk.index + 1}` };
        const reply = await options.runner.complete<LogbookReply>(request);
        if (reply.source === 'fallback') throw new Error('the reply was not valid JSON, even after one repair');
        added.push(
          ...normalizeEvents(
            (reply.json?.events ?? []) as unknown[],
            w.head.id,
            chunk.messages,
            stats,
            w.head.startedAt ?? w.head.storedAt,
          ),
        );
        processed.push(chunk.hash);
        doneChunks++;
        options.onProgress?.(doneChunks, total);
      }
      sessions[w.head.id] = { fingerprint: w.head.fingerprint, chunks: processed, started_at: w.head.startedAt ?? '' };
    } catch (error) {
      if (isBudgetError(error)) budgetStop ??= describeError(error);
      else {
        failed.push({ conversation: w.head.id, error: describeError(error) });
        logger.warn(`failed to process conversation ${w.head.id}: ${describeError(error)}`);
      }
      // Chunks that went through count as processed; the fingerprint is left empty so the rest is retried.
      sessions[w.head.id] = { fingerprint: '', chunks: processed, started_at: w.head.startedAt ?? '' };
    }
    return added;
  };

  for (let i = 0; i < work.length && !budgetStop; i += batchSize) {
    const batch = work.slice(i, i + batchSize);
    const replaced = new Set(batch.filter(readWhole).map((w) => w.head.id));
    const base = timeline.filter((e) => !replaced.has(e.source.conversation_id));
    const results =
      batchSize === 1
        ? [await runConversation(batch[0]!, base, asOf)]
        : await Promise.all(batch.map((w) => runConversation(w, base, asOf)));
    // A later decision on the same subject has the last word: the earlier one goes.
    const merged = deduplicateTimeline(sortNewestFirst([...base, ...results.flat()]));
    timeline = truncateTimeline(dropSupersededDecisions(merged), maxEvents);
    for (const w of batch) {
      const start = isoOrNull(w.head.startedAt);
      if (start && start > asOf) asOf = start;
    }
  }
  for (const w of work)
    if (!sessions[w.head.id])
      sessions[w.head.id] = { fingerprint: '', chunks: w.done, started_at: w.head.startedAt ?? '' };
  if (budgetStop) logger.warn(`${budgetStop}; the conversations not processed are processed on the next run`);
  const nowIso = now().toISOString();
  const document = emptyLogbook(options.workspace, nowIso, generator);
  document.source_range = { from: starts[0] ?? nowIso, to: starts[starts.length - 1] ?? nowIso };
  document.timeline = timeline;
  document.sessions = sessions;
  document.failed = heads.filter((h) => sessions[h.id]?.fingerprint === '').map((h) => h.id);
  return {
    document,
    changed: true,
    conversations: heads.length,
    processed: work.length,
    unchanged,
    empty,
    chunks: doneChunks,
    failed,
    dropped: stats.dropped,
    budgetStop,
  };
}
