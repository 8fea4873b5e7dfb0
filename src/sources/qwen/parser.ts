// Owns parsing Qwen Code chat lines (stateless across calls: messages keyed by record uuid, the session by
// its id). Typed prompts, replies (thoughts, text, function calls, token usage), tool results, compaction
// checkpoints and `/rename` titles; telemetry, slash-command and other system records are counted by subtype.
import { basename } from 'node:path';
import type { Block, ParsedMessage, ParsedSession, ParseOutput, TokenUsage } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { contentBlocks } from '../gemini/records.js';
import type { LineRecord, ParseContext } from '../types.js';
import { isObject, type Json, num, partsOf, str } from './schema.js';

/** Text Qwen Code adds to a prompt: referenced files' contents and system reminders. */
const EXPANDED = /^\s*--- Content from referenced files ---/;
const REMINDER = /^\s*<system-reminder>/;

function usageOf(record: Json, key: string, model: string | undefined): TokenUsage | undefined {
  const u = isObject(record.usageMetadata) ? record.usageMetadata : undefined;
  if (!u) return undefined;
  const cached = num(u.cachedContentTokenCount) ?? 0;
  const usage: TokenUsage = {
    apiMessageId: key,
    // The prompt count includes cached tokens; thoughts are output.
    inputTokens: Math.max(0, (num(u.promptTokenCount) ?? 0) - cached),
    outputTokens: (num(u.candidatesTokenCount) ?? 0) + (num(u.thoughtsTokenCount) ?? 0),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
  if (model) usage.model = model;
  return usage;
}

/** Marks what Qwen Code appended to a typed prompt; true when nothing typed is left. */
function markExpanded(blocks: Block[]): boolean {
  let expanded = false;
  for (const b of blocks) {
    if (b.kind !== 'text') continue;
    if (EXPANDED.test(b.text)) expanded = true;
    if (expanded) b.noise = 'expanded_content';
    else if (REMINDER.test(b.text)) b.noise = 'system-reminder';
  }
  return blocks.every((b) => b.kind !== 'text' || b.noise !== undefined);
}

function toolErrors(blocks: Block[], record: Json, parts: unknown[]): void {
  const status = isObject(record.toolCallResult) ? str(record.toolCallResult.status) : undefined;
  const failed = new Set<string>();
  for (const p of parts) {
    const fr = isObject(p) && isObject(p.functionResponse) ? p.functionResponse : undefined;
    if (fr && isObject(fr.response) && fr.response.error !== undefined) failed.add(str(fr.id) ?? '');
  }
  for (const b of blocks) {
    if (b.kind !== 'tool_result') continue;
    if (status === 'error' || status === 'cancelled' || failed.has(b.toolCallId ?? '')) b.isError = true;
  }
}

/** The summary a compression checkpoint carries: the text of its first compressed turn. */
function compactionText(payload: Json): string {
  const history = Array.isArray(payload.compressedHistory) ? payload.compressedHistory : [];
  const first = history.find(isObject);
  const parts = first && Array.isArray(first.parts) ? first.parts : [];
  return parts
    .map((p) => (isObject(p) ? (str(p.text) ?? '') : ''))
    .join('\n')
    .trim();
}

function convert(record: Json, session: ParsedSession, line: number, skip: (t: string) => void): ParsedMessage[] {
  const type = str(record.type) ?? 'untyped';
  const key = str(record.uuid) ?? `line:${line}`;
  const m: ParsedMessage = { sessionKey: session.key, key, role: 'user', kind: 'prompt', line, blocks: [] };
  const timestamp = str(record.timestamp);
  if (timestamp) m.timestamp = timestamp;
  if (record.isSidechain === true) m.isSidechain = true;
  const agentId = str(record.agentId);
  if (agentId) m.meta = { agentId, ...(str(record.agentName) ? { agentName: record.agentName } : {}) };
  const parts = partsOf(record);
  if (type === 'user' || type === 'tool_result') {
    m.blocks = contentBlocks(parts);
    if (m.blocks.length > 0 && m.blocks.every((b) => b.kind === 'tool_result')) {
      Object.assign(m, { role: 'tool', kind: 'tool_output' });
      toolErrors(m.blocks, record, parts);
    } else if (markExpanded(m.blocks)) m.kind = 'meta';
    else if (m.isSidechain) {
      // A subagent's "user" text is the parent agent's instruction, not a person typing.
      m.kind = 'meta';
      m.meta = { ...m.meta, subagentPrompt: true };
    }
  } else if (type === 'assistant') {
    Object.assign(m, { role: 'assistant', kind: 'response', blocks: contentBlocks(parts) });
    const model = str(record.model);
    if (model) m.model = model;
    const usage = usageOf(record, key, model);
    if (usage) m.usage = usage;
  } else if (type === 'system') {
    const subtype = str(record.subtype) ?? 'untyped';
    const payload = isObject(record.systemPayload) ? record.systemPayload : {};
    if (subtype === 'custom_title' && str(payload.customTitle)?.trim()) {
      session.title = (payload.customTitle as string).trim();
    } else if (subtype === 'parent_session' && str(payload.parentSessionId)) {
      Object.assign(session, { parentKey: payload.parentSessionId, relation: 'subagent' });
    }
    const summary = subtype === 'chat_compression' ? compactionText(payload) : '';
    if (!summary) {
      skip(`system:${subtype}`);
      return [];
    }
    Object.assign(m, { role: 'system', kind: 'compaction', blocks: [{ kind: 'summary', text: summary }] });
  } else {
    skip(`type:${type}`);
    return [];
  }
  if (m.blocks.length === 0 && !m.usage) {
    skip(`${type}:empty`);
    return [];
  }
  return [m];
}

export function parseQwenLines(lines: LineRecord[], ctx: ParseContext): ParseOutput {
  const out = emptyParseOutput();
  const session: ParsedSession = { key: basename(ctx.path).replace(/\.jsonl$/, ''), agent: 'qwen' };
  const skip = (t: string): void => {
    out.skipped[t] = (out.skipped[t] ?? 0) + 1;
  };
  let sawRecord = false;
  for (const { text, line } of lines) {
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      out.malformed.push({ line, reason: 'invalid JSON' });
      continue;
    }
    if (!isObject(value) || typeof value.type !== 'string') {
      out.malformed.push({ line, reason: 'not a Qwen Code record (no type)' });
      continue;
    }
    if (!sawRecord) {
      sawRecord = true;
      session.key = str(value.sessionId) ?? session.key;
    }
    session.project ??= str(value.cwd);
    session.gitBranch ??= str(value.gitBranch);
    const version = str(value.version);
    if (version) session.meta = { version };
    const fork = isObject(value.forkedFrom) ? str(value.forkedFrom.sessionId) : undefined;
    if (fork && fork !== session.key) Object.assign(session, { parentKey: fork, relation: 'fork' });
    out.messages.push(...convert(value, session, line, skip));
  }
  if (sawRecord) out.sessions.push(session);
  return out;
}
