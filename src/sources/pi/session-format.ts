// Owns reading the session format of the pi coding agent, which OpenClaw writes too: JSONL entries
// `{type, id, parentId, timestamp}` after a `{type: "session", version, id, cwd}` header. `message` entries
// hold `{role: user | assistant | toolResult, content}`; `compaction` and `branch_summary` carry summaries;
// `session_info` names the session. Stateless across calls: messages are keyed by entry id.
import { basename } from 'node:path';
import type { AgentName, Block, ParsedMessage, ParsedSession, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { isObject, type Json, num, str } from '../json-guards.js';
import type { LineRecord, ParseContext } from '../types.js';

/** What an agent adds to a typed prompt; returns the typed text ('' when nothing was typed). */
export type TypedText = (text: string) => string;

function partBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content.trim() ? [{ kind: 'text', text: content }] : [];
  const blocks: Block[] = [];
  for (const p of Array.isArray(content) ? content : []) {
    if (!isObject(p)) continue;
    if (p.type === 'thinking' && str(p.thinking)?.trim()) blocks.push({ kind: 'thinking', text: p.thinking as string });
    else if (p.type === 'toolCall') {
      const input = p.arguments ?? {};
      blocks.push({
        kind: 'tool_call',
        text: JSON.stringify(input),
        textIsInput: true,
        toolName: str(p.name) ?? 'unknown',
        toolCallId: str(p.id) ?? '',
        toolInput: input,
      });
    } else if (p.type === 'image') blocks.push({ kind: 'image', text: '', meta: { mediaType: str(p.mimeType) ?? '' } });
    else if (str(p.text)?.trim()) blocks.push({ kind: 'text', text: p.text as string });
  }
  return blocks;
}

function convertMessage(entry: Json, m: ParsedMessage, typed: TypedText): boolean {
  const msg = isObject(entry.message) ? entry.message : {};
  const role = str(msg.role);
  if (role === 'user') {
    m.blocks = partBlocks(msg.content);
    for (const b of m.blocks) {
      if (b.kind !== 'text') continue;
      const text = typed(b.text);
      if (text !== b.text.trim()) {
        if (text) m.blocks.push({ kind: 'text', text });
        b.noise = 'injected_context';
      }
    }
    if (!m.blocks.some((b) => b.kind !== 'text' || !b.noise)) m.kind = 'meta';
    return true;
  }
  if (role === 'assistant') {
    Object.assign(m, { role: 'assistant', kind: 'response', blocks: partBlocks(msg.content) });
    const model = str(msg.model);
    if (model) m.model = model;
    const u = isObject(msg.usage) ? msg.usage : undefined;
    if (u && (num(u.input) || num(u.output) || num(u.cacheRead)))
      m.usage = {
        apiMessageId: `${m.sessionKey}:${m.key}`,
        ...(model ? { model } : {}),
        inputTokens: num(u.input) ?? 0,
        outputTokens: num(u.output) ?? 0,
        cacheReadTokens: num(u.cacheRead) ?? 0,
        cacheWriteTokens: num(u.cacheWrite) ?? 0,
      };
    if (msg.stopReason === 'error' && str(msg.errorMessage))
      m.blocks.push({ kind: 'system', text: msg.errorMessage as string });
    return true;
  }
  if (role === 'toolResult') {
    const parts = partBlocks(msg.content);
    const block: Block = {
      kind: 'tool_result',
      text: parts
        .filter((b) => b.kind === 'text')
        .map((b) => b.text)
        .join('\n'),
      toolCallId: str(msg.toolCallId) ?? '',
    };
    const name = str(msg.toolName);
    if (name) block.toolName = name;
    if (msg.isError === true) block.isError = true;
    Object.assign(m, {
      role: 'tool',
      kind: 'tool_output',
      blocks: [block, ...parts.filter((b) => b.kind === 'image')],
    });
    return true;
  }
  return false;
}

/** The session id a file names: `<id>.jsonl` (OpenClaw) or `<time>_<id>.jsonl` (pi). */
export function sessionIdOfFile(path: string): string {
  const stem = basename(path).replace(/\.jsonl$/, '');
  return stem.slice(stem.lastIndexOf('_') + 1);
}

export function parsePiSessionLines(
  lines: LineRecord[],
  ctx: ParseContext,
  agent: AgentName,
  typed: TypedText,
): ParseOutput {
  const out = emptyParseOutput();
  const session: ParsedSession = { key: sessionIdOfFile(ctx.path), agent };
  const skip = (t: string): void => {
    out.skipped[t] = (out.skipped[t] ?? 0) + 1;
  };
  for (const { text, line } of lines) {
    if (!text.trim()) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      out.malformed.push({ line, reason: 'invalid JSON' });
      continue;
    }
    if (!isObject(entry) || typeof entry.type !== 'string') {
      out.malformed.push({ line, reason: 'not a session entry (no type)' });
      continue;
    }
    const type = entry.type;
    if (type === 'session') {
      session.project ??= str(entry.cwd);
      if (num(entry.version) !== undefined) session.meta = { version: entry.version };
      const parent = str(entry.parentSession);
      if (parent) Object.assign(session, { parentKey: sessionIdOfFile(parent), relation: 'fork' });
      continue;
    }
    if (type === 'session_info') {
      if (str(entry.name)?.trim()) session.title = (entry.name as string).trim();
      else skip(type);
      continue;
    }
    const m: ParsedMessage = {
      sessionKey: session.key,
      key: str(entry.id) ?? `line:${line}`,
      role: 'user',
      kind: 'prompt',
      line,
      blocks: [],
    };
    const ts = str(entry.timestamp);
    if (ts) m.timestamp = ts;
    if (type === 'compaction' || type === 'branch_summary') {
      const summary = str(entry.summary)?.trim();
      if (!summary) {
        skip(`${type}:empty`);
        continue;
      }
      Object.assign(m, { role: 'system', kind: 'compaction', blocks: [{ kind: 'summary', text: summary }] });
    } else if (type !== 'message' || !convertMessage(entry, m, typed)) {
      skip(
        type === 'message'
          ? `message:${str(isObject(entry.message) ? entry.message.role : undefined) ?? 'unknown'}`
          : type,
      );
      continue;
    }
    if (m.blocks.length === 0 && !m.usage) skip(`${type}:empty`);
    else out.messages.push(m);
  }
  out.sessions.push(session);
  return out;
}
