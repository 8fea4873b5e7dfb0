// Owns turning a ParsedMessage into the column values the store writes (JSON of metas and tool inputs,
// the block's field, its full-text index text). Pure and database-free, so the ingest worker thread can
// do this work while the main thread writes the previous batch.
import type { Block, BlockField, ParsedMessage, TokenUsage } from '../shared/model.js';
import { sha256 } from '../shared/hash.js';
import { FTS_MAX_TOOL_OUTPUT_CHARS, toFtsText } from './fts-text.js';
import { storedToolInput } from './tool-input.js';

export interface PreparedBlock {
  kind: string;
  field: BlockField;
  text: string;
  /** Text for the full-text index when it differs from `text` (CJK spacing, camelCase tail), else null. */
  fts: string | null;
  toolName: string | null;
  toolCallId: string | null;
  toolInput: string | null;
  isError: 0 | 1;
  noise: string | null;
  meta: string | null;
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
  meta: string | null;
  usage?: TokenUsage;
  blocks: PreparedBlock[];
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
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function messageContentHash(message: ParsedMessage): string {
  return sha256(JSON.stringify([message.role, message.kind, message.timestamp ?? null, message.blocks]));
}

/**
 * The text a block is indexed with in blocks_fts; null when it is the text itself (which saves copying it
 * again to the writer thread).
 */
export function indexedText(text: string, field: BlockField): string | null {
  if (text.length === 0) return null;
  const fts = toFtsText(text, field === 'tool_output' ? FTS_MAX_TOOL_OUTPUT_CHARS : undefined);
  return fts === text ? null : fts;
}

export function prepareMessage(message: ParsedMessage, mode: 'merge' | 'replace'): PreparedMessage {
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
    meta: jsonOrNull(message.meta),
    blocks: message.blocks.map((block) => {
      const field = blockField(block, message);
      return {
        kind: block.kind,
        field,
        text: block.text,
        fts: indexedText(block.text, field),
        toolName: block.toolName ?? null,
        toolCallId: block.toolCallId ?? null,
        toolInput: storedToolInput(jsonOrNull(block.toolInput), block.text),
        isError: block.isError ? 1 : 0,
        noise: block.noise ?? null,
        meta: jsonOrNull(block.meta),
      };
    }),
  };
  if (message.usage) prepared.usage = message.usage;
  return prepared;
}
