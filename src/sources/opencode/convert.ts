// Owns turning one OpenCode session (session row, messages with their `data`, parts) into the
// normalized model. Shared by the SQLite reader and the legacy storage/ JSON reader.
import type { Block, ParseOutput, ParsedMessage, ParsedSession } from '../../shared/model.js';
import { epochToIso, isRecord, num, parseJsonObject, partToBlocks, str } from './schema.js';

export interface RawSession {
  id: string;
  directory?: string;
  title?: string;
  parentId?: string;
  projectId?: string;
  /** The project's worktree (project table), used when the session has no directory. */
  worktree?: string;
  version?: string;
  timeCreated?: number;
  timeUpdated?: number;
}

export interface RawPart {
  id: string;
  data: unknown;
}

export interface RawMessage {
  id: string;
  timeCreated?: number;
  data: unknown;
  parts: RawPart[];
}

function bump(out: ParseOutput, type: string): void {
  out.skipped[type] = (out.skipped[type] ?? 0) + 1;
}

/**
 * The oldest builds wrote `{id, role, parts, metadata: {time, sessionID, error, assistant: {modelID, providerID,
 * path, cost, tokens, summary}}}`: lifted to the current top-level fields so one conversion reads both.
 */
function fromOldestShape(info: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!info || info.time !== undefined || !isRecord(info.metadata)) return info;
  const meta = info.metadata;
  const assistant = isRecord(meta.assistant) ? meta.assistant : {};
  return { ...assistant, ...info, time: meta.time, ...(meta.error !== undefined ? { error: meta.error } : {}) };
}

function convertMessage(
  session: RawSession,
  raw: RawMessage,
  line: number,
  out: ParseOutput,
): ParsedMessage | undefined {
  const info = fromOldestShape(parseJsonObject(raw.data));
  if (!info) {
    out.malformed.push({ line, reason: `message ${raw.id}: data is not a JSON object` });
    return undefined;
  }
  const role = str(info.role);
  if (role !== 'user' && role !== 'assistant') {
    bump(out, `message:${role ?? 'no_role'}`);
    return undefined;
  }
  const blocks: Block[] = [];
  let prompt = false;
  let compaction = false;
  for (const part of [...raw.parts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const data = parseJsonObject(part.data);
    if (!data) {
      out.malformed.push({ line, reason: `part ${part.id} of message ${raw.id}: data is not a JSON object` });
      continue;
    }
    const result = partToBlocks(data);
    if ('malformed' in result) out.malformed.push({ line, reason: `part ${part.id}: ${result.malformed}` });
    else if ('skipped' in result) bump(out, result.skipped);
    else {
      blocks.push(...result.blocks);
      prompt ||= result.prompt === true;
      compaction ||= result.compaction === true;
    }
  }
  const time = isRecord(info.time) ? info.time : {};
  const message: ParsedMessage = {
    sessionKey: session.id,
    key: raw.id,
    role,
    kind: role === 'user' ? (prompt ? 'prompt' : compaction ? 'compaction' : 'meta') : 'response',
    line,
    blocks,
  };
  const timestamp = epochToIso(time.created) ?? epochToIso(raw.timeCreated);
  if (timestamp) message.timestamp = timestamp;
  const meta: Record<string, unknown> = {};
  if (role === 'assistant') {
    const model = str(info.modelID);
    if (model) message.model = model;
    if (info.summary === true) {
      message.kind = 'compaction';
      for (const block of blocks) if (block.kind === 'text') block.kind = 'summary';
    }
    if (isRecord(info.tokens)) {
      const tokens = info.tokens;
      const cache = isRecord(tokens.cache) ? tokens.cache : {};
      message.usage = {
        apiMessageId: raw.id,
        inputTokens: num(tokens.input),
        // OpenCode counts reasoning tokens apart from output; both are billed as output.
        outputTokens: num(tokens.output) + num(tokens.reasoning),
        cacheReadTokens: num(cache.read),
        cacheWriteTokens: num(cache.write),
      };
      if (model) message.usage.model = model;
    }
    if (typeof info.cost === 'number') meta.cost = info.cost;
    for (const field of ['providerID', 'mode', 'agent', 'finish'] as const)
      if (str(info[field])) meta[field] = info[field];
    if (isRecord(info.error)) {
      const data = isRecord(info.error.data) ? info.error.data : {};
      const text = str(data.message) ?? str(info.error.name) ?? 'error';
      blocks.push({ kind: 'system', text, meta: { error: str(info.error.name) ?? 'error' } });
      if (blocks.length === 1) message.kind = 'error';
    }
  } else if (isRecord(info.model) && str(info.model.modelID)) {
    meta.model = info.model.modelID;
  }
  if (Object.keys(meta).length > 0) message.meta = meta;
  if (blocks.length === 0 && !message.usage) {
    bump(out, 'message:empty');
    return undefined;
  }
  return message;
}

function firstCwd(messages: RawMessage[]): string | undefined {
  for (const m of messages) {
    const info = fromOldestShape(parseJsonObject(m.data));
    if (info && isRecord(info.path) && str(info.path.cwd)) return str(info.path.cwd);
  }
  return undefined;
}

/**
 * OpenCode names a session `New session - <ISO time>` (`Child session - …` for subagents) until it titles it:
 * a placeholder, so the first typed prompt names the session instead.
 */
export function isDefaultTitle(title: string): boolean {
  return /^(?:New|Child) session - \d{4}-\d{2}-\d{2}T[\d:.]+Z?$/.test(title.trim());
}

/** Appends one session and its messages (in the given order) to `out`. */
export function convertSession(raw: RawSession, messages: RawMessage[], out: ParseOutput): void {
  const session: ParsedSession = { key: raw.id, agent: 'opencode' };
  const project =
    raw.directory || firstCwd(messages) || (raw.worktree && raw.worktree !== '/' ? raw.worktree : undefined);
  if (project) session.project = project;
  if (raw.title && !isDefaultTitle(raw.title)) session.title = raw.title;
  if (raw.parentId) {
    session.parentKey = raw.parentId;
    session.relation = 'subagent';
  }
  const meta: Record<string, unknown> = {};
  if (raw.projectId) meta.projectId = raw.projectId;
  if (raw.version) meta.opencodeVersion = raw.version;
  const created = epochToIso(raw.timeCreated);
  if (created) meta.createdAt = created;
  const updated = epochToIso(raw.timeUpdated);
  if (updated) meta.updatedAt = updated;
  if (Object.keys(meta).length > 0) session.meta = meta;
  out.sessions.push(session);
  messages.forEach((m, i) => {
    const message = convertMessage(raw, m, i + 1, out);
    if (message) out.messages.push(message);
  });
}
