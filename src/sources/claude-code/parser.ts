// Owns parsing Claude Code JSONL lines into the normalized model. Stateless across calls: message
// keys (record uuid; API message id for assistant replies split over several lines) let the store merge
// what later calls add. Never throws on data: bad lines go to `malformed`, unused records to `skipped`.
import type { ParseOutput, ParsedMessage, ParsedSession } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import type { LineRecord, ParseContext } from '../types.js';
import type { BlockContext } from './blocks.js';
import { queuedCommandRecord, toMessage } from './messages.js';
import { readSubagentMeta, relationForAgentId, subagentSessionKey, transcriptFileInfo } from './paths.js';
import type { TranscriptFileInfo } from './paths.js';
import {
  isObject,
  isPromptLogEntry,
  isTranscriptRecord,
  MESSAGE_TYPES,
  str,
  titleOf,
  type JsonObject,
} from './schema.js';

const UUID_STEM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface SessionTarget {
  key: string;
  parentKey?: string;
  agentId?: string;
}

interface SessionAcc {
  session: ParsedSession;
  models: Set<string>;
  titleRank: number;
}

/** Which session a record belongs to: the subagent of an `agent-<id>.jsonl` file, else its `sessionId`. */
function targetOf(record: JsonObject, file: TranscriptFileInfo): SessionTarget {
  const agentId = file.agentId ?? (record.isSidechain === true ? str(record.agentId) : undefined);
  if (agentId) {
    const target: SessionTarget = { key: subagentSessionKey(agentId), agentId };
    const parentKey = str(record.sessionId);
    if (parentKey) target.parentKey = parentKey;
    return target;
  }
  return { key: str(record.sessionId) ?? file.stem };
}

class SessionBook {
  readonly sessions = new Map<string, SessionAcc>();
  private subagentMeta: Record<string, string> | undefined | null = null;

  constructor(private readonly ctx: ParseContext) {}

  touch(target: SessionTarget, record?: JsonObject): SessionAcc {
    let acc = this.sessions.get(target.key);
    if (!acc) {
      const session: ParsedSession = { key: target.key, agent: 'claude-code' };
      if (target.agentId) {
        session.relation = relationForAgentId(target.agentId);
        session.meta = { agentId: target.agentId, ...this.readSubagentMeta() };
      }
      acc = { session, models: new Set(), titleRank: 0 };
      this.sessions.set(target.key, acc);
    }
    const session = acc.session;
    if (target.parentKey && !session.parentKey) session.parentKey = target.parentKey;
    if (record) {
      session.project ??= str(record.cwd);
      session.gitBranch ??= str(record.gitBranch);
      const meta = (session.meta ??= {});
      for (const field of ['version', 'slug', 'entrypoint'] as const) {
        const value = str(record[field]);
        if (value) meta[field] = value;
      }
    }
    return acc;
  }

  private readSubagentMeta(): Record<string, string> | undefined {
    if (this.subagentMeta === null) this.subagentMeta = readSubagentMeta(this.ctx.path);
    return this.subagentMeta;
  }

  output(): ParsedSession[] {
    return [...this.sessions.values()].map((acc) => {
      if (acc.models.size > 0) acc.session.meta = { ...acc.session.meta, models: [...acc.models] };
      return acc.session;
    });
  }
}

function parseJsonLines(lines: LineRecord[], out: ParseOutput): { record: JsonObject; line: number }[] {
  const records: { record: JsonObject; line: number }[] = [];
  for (const { text, line } of lines) {
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      out.malformed.push({ line, reason: 'invalid JSON' });
      continue;
    }
    if (isObject(value)) records.push({ record: value, line });
    else out.malformed.push({ line, reason: 'not a JSON object' });
  }
  return records;
}

export function parseClaudeCodeLines(lines: LineRecord[], ctx: ParseContext): ParseOutput {
  const out = emptyParseOutput();
  const skip = (name: string): void => {
    out.skipped[name] = (out.skipped[name] ?? 0) + 1;
  };
  const records = parseJsonLines(lines, out);
  if (records.some((r) => isPromptLogEntry(r.record)) && !records.some((r) => isTranscriptRecord(r.record))) {
    return { ...emptyParseOutput(), notSession: 'Claude Code prompt log (history.jsonl), not a session transcript' };
  }

  const file = transcriptFileInfo(ctx.path);
  const book = new SessionBook(ctx);
  const messages = new Map<string, ParsedMessage>();
  const seenUuids = new Set<string>();
  const titles: { title: string; rank: number; target?: SessionTarget }[] = [];
  const blockCtx: BlockContext = { path: ctx.path, toolNames: new Map(), skip };
  let fileTarget: SessionTarget | undefined = file.agentId
    ? { key: subagentSessionKey(file.agentId), agentId: file.agentId }
    : UUID_STEM.test(file.stem)
      ? { key: file.stem }
      : undefined;

  for (const entry of records) {
    const { line } = entry;
    try {
      // A prompt queued while the agent worked has no user line of its own: read it as one.
      const record = queuedCommandRecord(entry.record) ?? entry.record;
      const type = typeof record.type === 'string' ? record.type : undefined;
      if (!type) {
        skip('untyped');
        continue;
      }
      const title = titleOf(record);
      if (title)
        titles.push({ ...title, target: str(record.sessionId) && !file.agentId ? targetOf(record, file) : undefined });
      if (!MESSAGE_TYPES.has(type)) {
        skip(type);
        continue;
      }
      const uuid = str(record.uuid);
      if (uuid && seenUuids.has(uuid)) {
        skip('duplicate-uuid');
        continue;
      }
      if (uuid) seenUuids.add(uuid);
      const target = targetOf(record, file);
      fileTarget ??= target;
      const acc = book.touch(target, record);
      blockCtx.sessionId = str(record.sessionId);
      const result = toMessage(type, record, line, target.key, blockCtx);
      if ('malformed' in result) {
        out.malformed.push({ line, reason: result.malformed });
        continue;
      }
      const { message } = result;
      if (message.model && message.model !== '<synthetic>') acc.models.add(message.model);
      mergeInto(messages, message);
    } catch (error) {
      out.malformed.push({
        line,
        reason: `unreadable record: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  applyTitles(titles, fileTarget, book);
  out.sessions = book.output();
  out.messages = [...messages.values()];
  nameLateResults(out.messages, blockCtx.toolNames);
  return out;
}

/** Claude Code sometimes writes a tool result before the line holding its call: name it afterwards. */
function nameLateResults(messages: ParsedMessage[], toolNames: Map<string, string>): void {
  for (const message of messages) {
    for (const block of message.blocks) {
      if (block.kind !== 'tool_result' || block.toolName || !block.toolCallId) continue;
      const name = toolNames.get(block.toolCallId);
      if (name) block.toolName = name;
    }
  }
}

/** Lines of one assistant reply share a key: append blocks, keep the largest usage numbers. */
function mergeInto(messages: Map<string, ParsedMessage>, message: ParsedMessage): void {
  const id = `${message.sessionKey}\u0000${message.key}`;
  const existing = messages.get(id);
  if (!existing) {
    messages.set(id, message);
    return;
  }
  existing.blocks.push(...message.blocks);
  existing.model ??= message.model;
  if (message.usage) {
    const prev = existing.usage;
    existing.usage = prev
      ? {
          ...prev,
          inputTokens: Math.max(prev.inputTokens, message.usage.inputTokens),
          outputTokens: Math.max(prev.outputTokens, message.usage.outputTokens),
          cacheReadTokens: Math.max(prev.cacheReadTokens, message.usage.cacheReadTokens),
          cacheWriteTokens: Math.max(prev.cacheWriteTokens, message.usage.cacheWriteTokens),
        }
      : message.usage;
  }
}

/** Highest-precedence title wins (custom > agent name > ai > summary); among equals, the last one in the file. */
function applyTitles(
  titles: { title: string; rank: number; target?: SessionTarget }[],
  fileTarget: SessionTarget | undefined,
  book: SessionBook,
): void {
  for (const { title, rank, target } of titles) {
    const where = target ?? fileTarget;
    if (!where) continue;
    const acc = book.touch(where);
    if (rank >= acc.titleRank) {
      acc.session.title = title;
      acc.titleRank = rank;
    }
  }
}
