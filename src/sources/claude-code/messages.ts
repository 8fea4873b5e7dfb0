// Owns turning one Claude Code user/assistant/system record into a ParsedMessage: its key, role,
// kind (prompt, tool_output, compaction, meta, system, error, response), usage and record metadata.
import type { Block, MessageKind, ParsedMessage, TokenUsage } from '../../shared/model.js';
import { assistantBlocks, textBlocks, userBlocks, type BlockContext } from './blocks.js';
import { isObject, isoTimestamp, num, str, type JsonObject } from './schema.js';
import { stringifyJson } from '../../shared/bounded-json.js';

export type MessageResult = { message: ParsedMessage } | { malformed: string };

export function toMessage(
  type: string,
  record: JsonObject,
  line: number,
  sessionKey: string,
  ctx: BlockContext,
): MessageResult {
  if (type === 'system') return { message: systemMessage(record, line, sessionKey) };
  const message = record.message;
  if (!isObject(message)) return { malformed: `${type} record without a message object` };
  return type === 'assistant'
    ? assistantMessage(record, message, line, sessionKey, ctx)
    : { message: userMessage(record, message, line, sessionKey, ctx) };
}

function baseMessage(record: JsonObject, line: number, sessionKey: string, key: string): ParsedMessage {
  const base: ParsedMessage = { sessionKey, key, role: 'user', kind: 'meta', line, blocks: [] };
  const timestamp = isoTimestamp(record.timestamp);
  if (timestamp) base.timestamp = timestamp;
  if (record.isSidechain === true) base.isSidechain = true;
  return base;
}

function recordMeta(record: JsonObject, fields: readonly string[]): Record<string, unknown> | undefined {
  const meta: Record<string, unknown> = {};
  for (const field of fields) {
    const value = record[field];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') meta[field] = value;
  }
  return Object.keys(meta).length > 0 ? meta : undefined;
}

const USER_META_FIELDS = [
  'parentUuid',
  'isMeta',
  'isCompactSummary',
  'sourceToolUseID',
  'sourceToolAssistantUUID',
  'isVisibleInTranscriptOnly',
  'agentId',
  'queuedCommand',
] as const;

/**
 * An `attachment` record of type `queued_command` (text sent while the agent worked) as the user record it
 * stands for: a prompt when a person typed it, context (isMeta) for task notifications and other origins.
 */
export function queuedCommandRecord(record: JsonObject): JsonObject | undefined {
  const attachment = record.attachment;
  if (record.type !== 'attachment' || !isObject(attachment) || attachment.type !== 'queued_command') return undefined;
  const mode = str(attachment.commandMode) ?? 'prompt';
  const origin = isObject(attachment.origin) ? str(attachment.origin.kind) : undefined;
  const typed = mode === 'prompt' && (origin ?? 'human') === 'human' && attachment.isMeta !== true;
  return {
    ...record,
    type: 'user',
    message: { role: 'user', content: attachment.prompt ?? '' },
    queuedCommand: true,
    ...(typed ? {} : { isMeta: true }),
  };
}

/** What a user record is: a typed prompt, tool output, a compaction summary or injected context. */
function userKind(record: JsonObject, blocks: Block[]): MessageKind {
  if (record.isCompactSummary === true) return 'compaction';
  if (record.isMeta === true) return 'meta';
  const typed = blocks.some((b) => !b.noise && (b.kind === 'text' || b.kind === 'image' || b.kind === 'document'));
  if (!typed) return blocks.some((b) => b.kind === 'tool_result') ? 'tool_output' : 'meta';
  // In a subagent transcript the "user" text is the parent agent's instruction, not a person typing.
  return record.isSidechain === true ? 'meta' : 'prompt';
}

function userMessage(
  record: JsonObject,
  message: JsonObject,
  line: number,
  sessionKey: string,
  ctx: BlockContext,
): ParsedMessage {
  const uuid = str(record.uuid);
  const result = baseMessage(record, line, sessionKey, uuid ?? `line-${line}`);
  result.blocks = userBlocks(message.content, record.toolUseResult, ctx, record.isCompactSummary === true);
  result.kind = userKind(record, result.blocks);
  if (result.kind === 'tool_output') result.role = 'tool';
  const meta = recordMeta(record, USER_META_FIELDS) ?? {};
  if (
    result.kind === 'meta' &&
    record.isSidechain === true &&
    result.blocks.some((b) => !b.noise && b.kind === 'text')
  ) {
    meta.subagentPrompt = true;
  }
  if (Object.keys(meta).length > 0) result.meta = meta;
  return result;
}

function usageOf(message: JsonObject, apiMessageId: string, model: string | undefined): TokenUsage | undefined {
  const usage = message.usage;
  if (!isObject(usage)) return undefined;
  const result: TokenUsage = {
    apiMessageId,
    inputTokens: num(usage.input_tokens),
    outputTokens: num(usage.output_tokens),
    cacheReadTokens: num(usage.cache_read_input_tokens),
    cacheWriteTokens: num(usage.cache_creation_input_tokens),
  };
  if (model) result.model = model;
  return result;
}

function assistantMessage(
  record: JsonObject,
  message: JsonObject,
  line: number,
  sessionKey: string,
  ctx: BlockContext,
): MessageResult {
  const apiId = str(message.id);
  const uuid = str(record.uuid);
  // Without either id (exported or hand-written transcripts) the line is the identity, as for user records.
  const key = apiId ?? uuid ?? `line-${line}`;
  const result = baseMessage(record, line, sessionKey, key);
  result.role = 'assistant';
  const isError = record.isApiErrorMessage === true;
  result.kind = isError ? 'error' : 'response';
  const model = str(message.model);
  if (model) result.model = model;
  result.blocks = assistantBlocks(message.content, ctx);
  if (apiId && !isError && model !== '<synthetic>') {
    const usage = usageOf(message, apiId, model);
    if (usage) result.usage = usage;
  }
  const meta: Record<string, unknown> = recordMeta(record, ['requestId', 'parentUuid']) ?? {};
  const stopReason = str(message.stop_reason);
  if (stopReason) meta.stopReason = stopReason;
  if (typeof record.error === 'string') meta.error = record.error;
  if (Object.keys(meta).length > 0) result.meta = meta;
  return { message: result };
}

const SYSTEM_META_FIELDS = [
  'subtype',
  'level',
  'parentUuid',
  'logicalParentUuid',
  'isMeta',
  'durationMs',
  'retryInMs',
  'retryAttempt',
  'maxRetries',
  'hookCount',
  'preventedContinuation',
  'stopReason',
  'hasOutput',
  'toolUseID',
  'messageCount',
  'cause',
] as const;

function systemMessage(record: JsonObject, line: number, sessionKey: string): ParsedMessage {
  const uuid = str(record.uuid);
  const result = baseMessage(record, line, sessionKey, uuid ?? `line-${line}`);
  result.role = 'system';
  result.kind = 'system';
  const content = typeof record.content === 'string' ? record.content : '';
  result.blocks = textBlocks(content).map((block) => ({ ...block, kind: 'system' }));
  const meta = recordMeta(record, SYSTEM_META_FIELDS) ?? {};
  if (isObject(record.compactMetadata)) meta.compactMetadata = record.compactMetadata;
  if (isObject(record.error) && Object.keys(record.error).length > 0) meta.error = compactJson(record.error);
  if (Object.keys(meta).length > 0) result.meta = meta;
  return result;
}

function compactJson(value: unknown): string {
  try {
    const text = stringifyJson(value) ?? '';
    return text.length > 2000 ? text.slice(0, 2000) : text;
  } catch {
    return '';
  }
}
