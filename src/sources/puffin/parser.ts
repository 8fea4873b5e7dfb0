// Owns parsing one Puffin `history.json`: files up to the streaming threshold are read with
// JSON.parse, bigger ones (and any file JSON.parse rejects, e.g. a truncated tail) go through the
// token-level streaming walk. Both paths feed the same thread builder, so their output is identical.
import { readFileSync, statSync } from 'node:fs';
import { emptyParseOutput, type ParseOutput } from '../../shared/model.js';
import { projectForHistoryPath } from './paths.js';
import { isRecord } from './schema.js';
import { PuffinThreadBuilder, type BranchInfo, type PuffinSink } from './thread-builder.js';
import { PuffinTokenWalker, streamPuffinTokens, type WalkHandler } from './token-walker.js';

/** Files above this size are parsed with the streaming parser (design: 50 MB). */
export const STREAM_THRESHOLD_BYTES = 50 * 1024 * 1024;

const NOT_PUFFIN_REASON = 'not a Puffin history: no top-level "branches" object';

export interface PuffinParseOptions {
  /** Override the size above which the streaming parser is used (tests force it with 0). */
  streamThresholdBytes?: number;
}

function collectingSink(out: ParseOutput): PuffinSink {
  return {
    message: (m) => void out.messages.push(m),
    session: (s) => void out.sessions.push(s),
    malformed: (i) => void out.malformed.push(i),
    skipped: (type) => void (out.skipped[type] = (out.skipped[type] ?? 0) + 1),
  };
}

/** Walks an already-parsed document; false when it is not a Puffin history. */
function walkParsedHistory(doc: unknown, builder: PuffinThreadBuilder, sink: PuffinSink): boolean {
  const handler: WalkHandler = {
    prompt: (key, raw) => builder.addPrompt(key, raw),
    branchEnd: (key, info) => builder.endBranch(key, info),
    skipped: (type) => sink.skipped(type),
  };
  let isPuffin = false;
  void walkDocument(doc, handler, () => (isPuffin = true));
  return isPuffin;
}

/** Handler of the raw prompt walk; a promise returned by `prompt` pauses the walk until it settles. */
export interface RawPromptHandler {
  prompt(branchKey: string, raw: unknown): void | Promise<void>;
  branchEnd(branchKey: string, info: BranchInfo): void;
  /** `branchKey` is known for a non-object branch of a document read whole. */
  skipped(type: string, branchKey?: string): void;
  /** Asked after each prompt: true ends the walk early. */
  stop?(): boolean;
}

export interface RawPromptWalkEnd {
  /** False when the root is not an object with a `branches` object. */
  isPuffin: boolean;
  /** Set when the JSON is truncated or corrupt: prompts completed before it were handed over. */
  error?: { offset: number; line: number; message: string };
}

/** Runs synchronously to the end unless the handler returns promises; `found` marks a Puffin root. */
async function walkDocument(doc: unknown, handler: RawPromptHandler, found: () => void): Promise<void> {
  if (!isRecord(doc) || !isRecord(doc.branches)) return;
  found();
  for (const [branchKey, branch] of Object.entries(doc.branches)) {
    if (!isRecord(branch)) {
      handler.skipped('branch:not_object', branchKey);
      continue;
    }
    if (Array.isArray(branch.prompts)) {
      for (const prompt of branch.prompts) {
        const pending = handler.prompt(branchKey, prompt);
        if (pending) await pending;
        if (handler.stop?.()) return;
      }
    }
    handler.branchEnd(branchKey, {
      ...(typeof branch.id === 'string' ? { id: branch.id } : {}),
      ...(typeof branch.name === 'string' ? { name: branch.name } : {}),
    });
  }
}

/**
 * The file parsed whole; `parsed` false when it is corrupt or truncated (the streaming walk then keeps every prompt
 * completed before the error).
 */
function parseWhole(path: string): { parsed: boolean; doc?: unknown } {
  try {
    return { parsed: true, doc: JSON.parse(readFileSync(path, 'utf8')) as unknown };
  } catch {
    return { parsed: false };
  }
}

/**
 * Hands every raw prompt object of a history to `handler` in file order, without building sessions (the
 * history index reads Puffin this way): JSON.parse up to the threshold, the streaming walk above it or
 * when JSON.parse rejects the file. The caller validates prompts (checkPrompt).
 */
export async function walkPuffinPrompts(
  path: string,
  handler: RawPromptHandler,
  options: PuffinParseOptions = {},
): Promise<RawPromptWalkEnd> {
  const threshold = options.streamThresholdBytes ?? STREAM_THRESHOLD_BYTES;
  if (statSync(path).size <= threshold) {
    const { parsed, doc } = parseWhole(path);
    if (parsed) {
      let isPuffin = false;
      await walkDocument(doc, handler, () => (isPuffin = true));
      return { isPuffin };
    }
  }
  let pending: Promise<void> | undefined;
  const walker = new PuffinTokenWalker({
    prompt: (branchKey, raw) => void (pending = handler.prompt(branchKey, raw) || undefined),
    branchEnd: (branchKey, info) => handler.branchEnd(branchKey, info),
    skipped: (type) => handler.skipped(type),
  });
  const result = await streamPuffinTokens(path, walker, () => {
    const wait = pending;
    pending = undefined;
    return wait ?? (handler.stop?.() ? 'stop' : undefined);
  });
  const isPuffin = walker.rootKind === 'object' && (walker.sawBranches || result.error !== undefined);
  return { isPuffin, ...(result.error ? { error: result.error } : {}) };
}

/**
 * Streams a history into `sink` with bounded memory (messages are handed over as soon as their thread
 * is known; sessions at the end). Returns false when the file is not a Puffin history.
 */
async function streamPuffinHistory(path: string, sink: PuffinSink): Promise<boolean> {
  const builder = new PuffinThreadBuilder(sink, projectForHistoryPath(path));
  const walker = new PuffinTokenWalker({
    prompt: (branchKey, raw) => builder.addPrompt(branchKey, raw),
    branchEnd: (branchKey, info) => builder.endBranch(branchKey, info),
    skipped: (type) => sink.skipped(type),
  });
  const result = await streamPuffinTokens(path, walker);
  if (walker.rootKind !== 'object' || !walker.sawBranches) {
    if (!result.error || walker.rootKind !== 'object') return false;
  }
  if (result.error) {
    sink.malformed({
      line: result.error.line,
      offset: result.error.offset,
      reason:
        `invalid JSON (truncated or corrupt) near byte ` +
        `${result.error.offset}: ${result.error.message}; prompts completed before it were kept`,
    });
  }
  builder.finish();
  return true;
}

export async function parsePuffinFile(path: string, options: PuffinParseOptions = {}): Promise<ParseOutput> {
  const threshold = options.streamThresholdBytes ?? STREAM_THRESHOLD_BYTES;
  const out = emptyParseOutput();
  const sink = collectingSink(out);
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    out.notSession = `cannot read file: ${(err as Error).message}`;
    return out;
  }
  if (size <= threshold) {
    const { parsed, doc } = parseWhole(path);
    if (parsed) {
      const builder = new PuffinThreadBuilder(sink, projectForHistoryPath(path));
      if (!walkParsedHistory(doc, builder, sink)) return { ...emptyParseOutput(), notSession: NOT_PUFFIN_REASON };
      builder.finish();
      return out;
    }
  }
  const ok = await streamPuffinHistory(path, sink);
  if (!ok) return { ...emptyParseOutput(), notSession: NOT_PUFFIN_REASON };
  return out;
}

/** Messages handed to the engine per chunk when streaming. */
const STREAM_CHUNK_MESSAGES = 2000;

/**
 * The adapter's bounded-memory entry: small files are parsed in memory and emitted as one chunk; files
 * above the threshold (or corrupt ones) are streamed, and emitted every 2,000 messages.
 */
export async function streamPuffinFile(
  path: string,
  emit: (chunk: ParseOutput) => void,
  options: PuffinParseOptions = {},
): Promise<Pick<ParseOutput, 'notSession'>> {
  const threshold = options.streamThresholdBytes ?? STREAM_THRESHOLD_BYTES;
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    return { notSession: `cannot read file: ${(err as Error).message}` };
  }
  if (size <= threshold) {
    const out = await parsePuffinFile(path, options);
    if (out.notSession) return { notSession: out.notSession };
    emit(out);
    return {};
  }
  let chunk = emptyParseOutput();
  const flush = () => {
    if (chunk.messages.length || chunk.sessions.length || chunk.malformed.length || Object.keys(chunk.skipped).length)
      emit(chunk);
    chunk = emptyParseOutput();
  };
  const ok = await streamPuffinHistory(path, {
    message: (m) => {
      chunk.messages.push(m);
      if (chunk.messages.length >= STREAM_CHUNK_MESSAGES) flush();
    },
    session: (s) => void chunk.sessions.push(s),
    malformed: (i) => void chunk.malformed.push(i),
    skipped: (type) => void (chunk.skipped[type] = (chunk.skipped[type] ?? 0) + 1),
  });
  if (!ok) return { notSession: NOT_PUFFIN_REASON };
  flush();
  return {};
}
