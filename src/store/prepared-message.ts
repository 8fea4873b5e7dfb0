// Owns turning a ParsedMessage into the column values the store writes (JSON of metas and tool inputs,
// the block's field, its full-text index text), redacting as it goes when given a redaction. Pure and
// database-free, so the ingest worker thread can do this work while the main thread writes.
import type { Block, BlockField, ParsedMessage, TokenUsage } from '../shared/model.js';
import { sha256 } from '../shared/hash.js';
import { FTS_MAX_TOOL_OUTPUT_CHARS, ftsParts, joinFts } from './fts-text.js';
import { TOOL_INPUT_IS_TEXT, storedToolInput } from './tool-input.js';
import { stringifyJson } from '../shared/bounded-json.js';
import { strataEchoNoise } from '../shared/strata-echo.js';

/** A text column's value: a string, or its UTF-8 bytes (bound as they are; the store casts them to TEXT). */
export type StoredText = string | Uint8Array;

export interface PreparedBlock {
  kind: string;
  field: BlockField;
  /** UTF-8 bytes once packed by the ingest worker for the writer thread (see core/ingest/pipeline/text-pack.ts). */
  text: StoredText;
  /** Indexed text replacing `text` when it differs (CJK spaced out, clipped), else null (see ftsParts). */
  ftsBody: string | null;
  /** camelCase sub-words indexed after the text ('' when none). */
  ftsTail: string;
  /** The indexed text as UTF-8 bytes, set when `text` is packed (ftsBody and ftsTail are then unused). */
  ftsBytes?: Uint8Array;
  toolName: string | null;
  toolCallId: string | null;
  /** JSON, '' (the input is the text, see tool-input.ts) or null; UTF-8 bytes once packed. */
  toolInput: StoredText | null;
  isError: 0 | 1;
  noise: string | null;
  /** JSON or null; UTF-8 bytes once packed. */
  meta: StoredText | null;
}

export interface PreparedMessage {
  sessionKey: string;
  key: string;
  role: string;
  kind: string;
  timestamp: string | null;
  model: string | null;
  line: number;
  sidechain: 0 | 1;
  /** Content hash (replace mode only; null in merge mode). */
  hash: string | null;
  /** JSON or null; UTF-8 bytes once packed. */
  meta: StoredText | null;
  usage?: TokenUsage;
  blocks: PreparedBlock[];
  /** The parent session this message may be a copy of (see ParsedMessage.replayOf). */
  replayOf?: string;
}

export function blockField(block: Block, message: Pick<ParsedMessage, 'role' | 'kind'>): BlockField {
  switch (block.kind) {
    case 'thinking':
      return 'thinking';
    case 'tool_call':
      return 'tool_input';
    case 'tool_result':
      return 'tool_output';
    case 'system':
      return 'system';
    case 'summary':
      return 'summary';
    default:
      if (message.kind === 'compaction') return 'summary';
      if (message.kind === 'system' || message.kind === 'meta' || message.kind === 'error') return 'system';
      return message.role === 'assistant' ? 'assistant' : 'user';
  }
}

export function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : (stringifyJson(value) ?? null);
}

export function messageContentHash(message: ParsedMessage): string {
  return sha256(stringifyJson([message.role, message.kind, message.timestamp ?? null, message.blocks])!);
}

/**
 * How a block's text is indexed (see ftsParts): tool output only up to FTS_MAX_TOOL_OUTPUT_CHARS; a tool
 * input (JSON) with its escapes spaced out.
 */
function indexParts(text: string, field: BlockField): { ftsBody: string | null; ftsTail: string } {
  if (text.length === 0) return { ftsBody: null, ftsTail: '' };
  const parts = ftsParts(text, field === 'tool_output' ? FTS_MAX_TOOL_OUTPUT_CHARS : undefined, field === 'tool_input');
  return { ftsBody: parts.body, ftsTail: parts.tail };
}

/** The text a block is indexed with in blocks_fts. */
export function indexedText(block: Pick<PreparedBlock, 'text' | 'ftsBody' | 'ftsTail' | 'ftsBytes'>): StoredText {
  if (block.ftsBytes !== undefined) return block.ftsBytes;
  if (typeof block.text !== 'string') throw new Error('a packed block has no packed indexed text');
  return joinFts(block.text, { body: block.ftsBody, tail: block.ftsTail });
}

/** `indexedText` of a stored block's text and field. */
export function indexedTextOf(text: string, field: BlockField): string {
  const { ftsBody, ftsTail } = indexParts(text, field);
  return joinFts(text, { body: ftsBody, tail: ftsTail });
}

/** Secret redaction applied while preparing (the ingest passes its redactor's). */
export interface Redaction {
  text(value: string): string;
  value<T>(value: T): T;
}

const NO_REDACTION: Redaction = { text: (value) => value, value: (value) => value };

/** ES2024 string methods (Node 20 has them; the ES2023 lib does not declare them). */
type WellFormedString = string & { isWellFormed(): boolean; toWellFormed(): string };

/**
 * `text` with lone UTF-16 surrogates (a cut emoji) replaced by U+FFFD, so that it is stored as valid
 * UTF-8 and identically whether it is bound as a string or packed as bytes (see core/ingest/pipeline/text-pack.ts).
 */
export function wellFormed(text: string): string {
  return (text as WellFormedString).isWellFormed() ? text : (text as WellFormedString).toWellFormed();
}

function prepareBlock(block: Block, message: ParsedMessage, redaction: Redaction, packed: boolean): PreparedBlock {
  const field = blockField(block, message);
  // Packed texts need no check: encoding them as UTF-8 replaces a lone surrogate by U+FFFD, as wellFormed
  // does. A tool call's text is still checked: it is also parsed back for the session's statistics.
  const redacted = redaction.text(block.text);
  const text = packed && block.kind !== 'tool_call' ? redacted : wellFormed(redacted);
  // A tool input whose JSON is the block's text is stored as that text (see tool-input.ts): redacting
  // the text redacts it, so it is neither redacted nor serialized a second time.
  const inputJson = block.textIsInput && block.toolInput != null ? block.text : jsonOrNull(block.toolInput);
  const toolInput =
    inputJson === null
      ? null
      : inputJson === block.text
        ? TOOL_INPUT_IS_TEXT
        : storedToolInput(jsonOrNull(redaction.value(block.toolInput)), text);
  return {
    kind: block.kind,
    field,
    text,
    ...indexParts(text, field),
    toolName: block.toolName ?? null,
    toolCallId: block.toolCallId ?? null,
    toolInput,
    isError: block.isError ? 1 : 0,
    // strata's own calls, results and injected context are marked whatever the adapter saw (see strata-echo.ts).
    noise: strataEchoNoise(block) ?? block.noise ?? null,
    meta: jsonOrNull(redaction.value(block.meta)),
  };
}

/**
 * The column values of a message, redacted with `redaction` (none by default). Replace mode hashes the
 * message as given, so callers of that mode pass it already redacted. `packed`: the texts will be packed
 * as UTF-8 bytes (see core/ingest/pipeline/text-pack.ts) before they are written.
 */
export function prepareMessage(
  message: ParsedMessage,
  mode: 'merge' | 'replace',
  redaction: Redaction = NO_REDACTION,
  packed = false,
): PreparedMessage {
  const prepared: PreparedMessage = {
    sessionKey: message.sessionKey,
    key: message.key,
    role: message.role,
    kind: message.kind,
    timestamp: message.timestamp ?? null,
    model: message.model ?? null,
    line: message.line,
    sidechain: message.isSidechain ? 1 : 0,
    // Content hashes only matter when a whole file is re-parsed (replace mode).
    hash: mode === 'replace' ? messageContentHash(message) : null,
    meta: jsonOrNull(redaction.value(message.meta)),
    blocks: message.blocks.map((block) => prepareBlock(block, message, redaction, packed)),
  };
  if (message.usage) prepared.usage = message.usage;
  if (message.replayOf !== undefined) prepared.replayOf = message.replayOf;
  return prepared;
}
