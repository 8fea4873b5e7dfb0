// Owns generation 1 of Codex rollouts: one JSON document `{session: {id, timestamp, instructions}, items: [...]}`.
// Items are Responses-API items (`{type: "message", ...}`) or, in early forks, Chat-Completions messages
// (`{role, content, reasoning, tool_calls}` / `{role: "tool", tool_call_id, content}`). Lines are item indexes.
import { basename } from 'node:path';
import type { Block, ParseOutput, ParsedMessage, ParsedSession } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import type { ItemContext, ItemResult } from './items.js';
import {
  contentBlocks,
  convertResponseItem,
  cwdFromEnvironmentContext,
  injectedTag,
  parseArguments,
  toolCallBlock,
  toolOutput,
} from './items.js';
import { isArchivedPath, sessionIdFromFileName } from './paths.js';
import { arr, isObject, obj, str } from './schema.js';
import type { Json } from './schema.js';

function chatMessage(item: Json, ctx: ItemContext): ItemResult {
  const role = str(item.role);
  const base = { sessionKey: ctx.sessionKey, key: ctx.key, line: ctx.line };
  if (role === 'tool') {
    const callId = str(item.tool_call_id) ?? `item:${ctx.line}`;
    const out = toolOutput(item.content);
    const block: Block = { kind: 'tool_result', text: out.text, toolCallId: callId, isError: out.isError };
    const name = ctx.toolNames.get(callId);
    if (name) block.toolName = name;
    return { message: { ...base, role: 'tool', kind: 'tool_output', blocks: [block] } };
  }
  if (role === 'assistant') {
    const blocks: Block[] = [];
    const reasoning = str(item.reasoning);
    if (reasoning?.trim()) blocks.push({ kind: 'thinking', text: reasoning });
    blocks.push(...contentBlocks(item.content));
    for (const call of arr(item.tool_calls)) {
      if (!isObject(call)) continue;
      const fn = obj(call.function);
      const name = str(fn?.name) ?? str(call.name) ?? 'unknown';
      const callId = str(call.id) ?? `item:${ctx.line}:${blocks.length}`;
      ctx.toolNames.set(callId, name);
      blocks.push(toolCallBlock(name, callId, parseArguments(fn?.arguments)));
    }
    if (blocks.length === 0) return { skipped: 'message:empty' };
    return { message: { ...base, role: 'assistant', kind: 'response', blocks } };
  }
  const blocks = contentBlocks(item.content);
  if (blocks.length === 0) return { skipped: 'message:empty' };
  if (role === 'system' || role === 'developer') return { message: { ...base, role: 'system', kind: 'meta', blocks } };
  const tag = injectedTag(blocks.find((b) => b.kind === 'text')?.text ?? '');
  if (tag) for (const b of blocks) if (b.kind === 'text') b.noise = tag;
  return { message: { ...base, role: 'user', kind: tag ? 'meta' : 'prompt', blocks } };
}

/** Parses a whole generation-1 document (the joined lines of a `.json` rollout). */
export function parseCodexJsonDocument(text: string, path: string): ParseOutput {
  const out = emptyParseOutput();
  let doc: unknown;
  try {
    doc = JSON.parse(text) as unknown;
  } catch (err) {
    out.malformed.push({ line: 1, reason: `invalid or truncated JSON document: ${(err as Error).message}` });
    return out;
  }
  if (!isObject(doc) || !Array.isArray(doc.items)) {
    out.notSession = 'JSON document without Codex {session, items}: not a Codex rollout';
    return out;
  }
  const head = obj(doc.session) ?? {};
  const key = str(head.id) ?? sessionIdFromFileName(path) ?? basename(path).replace(/\.json$/, '');
  const session: ParsedSession = { key, agent: 'codex' };
  const meta: Json = { generation: 1 };
  const startedAt = str(head.timestamp);
  if (startedAt) meta.startedAt = startedAt;
  if (isArchivedPath(path)) meta.archived = true;
  session.meta = meta;
  out.sessions.push(session);

  const toolNames = new Map<string, string>();
  doc.items.forEach((item, i) => {
    const line = i + 1;
    if (!isObject(item)) {
      out.malformed.push({ line, reason: 'item is not a JSON object' });
      return;
    }
    const ctx: ItemContext = { sessionKey: key, key: `item:${line}`, line, toolNames };
    const result = typeof item.type === 'string' ? convertResponseItem(item, ctx) : chatMessage(item, ctx);
    if ('skipped' in result) {
      out.skipped[result.skipped] = (out.skipped[result.skipped] ?? 0) + 1;
      return;
    }
    const m: ParsedMessage = result.message;
    if (session.project === undefined && m.kind === 'meta' && m.blocks[0]?.noise === 'environment_context') {
      const cwd = cwdFromEnvironmentContext(m.blocks[0].text);
      if (cwd) session.project = cwd;
    }
    out.messages.push(m);
  });
  return out;
}
