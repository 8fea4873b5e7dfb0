// Owns parsing one Amp thread (FileAdapter: Amp rewrites the document whole on every change). A user
// message with text is a prompt; one holding only tool results is tool output; an assistant message is
// one reply with its token usage. Times: `meta.sentAt` for prompts, the usage ledger for replies.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ParsedMessage, ParsedSession, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import type { ParseContext } from '../types.js';
import { ampProject, isObject, isoMs, ledgerTimes, num, partBlock, str, type Json } from './schema.js';

function count(out: ParseOutput, type: string): void {
  out.skipped[type] = (out.skipped[type] ?? 0) + 1;
}

function convert(
  raw: Json,
  index: number,
  session: ParsedSession,
  times: Map<number, string>,
  toolNames: Map<string, string>,
  out: ParseOutput,
): ParsedMessage | undefined {
  const role = str(raw.role);
  if (role !== 'user' && role !== 'assistant') {
    count(out, `message:${role ?? 'missing'}`);
    return undefined;
  }
  const id = num(raw.messageId);
  const m: ParsedMessage = {
    sessionKey: session.key,
    key: id !== undefined ? `m:${id}` : `i:${index}`,
    role,
    kind: role === 'user' ? 'prompt' : 'response',
    line: index + 1,
    blocks: [],
  };
  for (const part of Array.isArray(raw.content) ? raw.content : []) {
    const { block, skipped } = partBlock(part, toolNames);
    if (block) m.blocks.push(block);
    else if (skipped) count(out, skipped);
  }
  if (m.blocks.length === 0) {
    count(out, `message:${role}:empty`);
    return undefined;
  }
  if (role === 'user' && !m.blocks.some((b) => b.kind === 'text'))
    Object.assign(m, { role: 'tool', kind: 'tool_output' });
  const meta = isObject(raw.meta) ? raw.meta : {};
  const timestamp = role === 'user' ? isoMs(meta.sentAt) : id !== undefined ? times.get(id) : undefined;
  if (timestamp) m.timestamp = timestamp;
  const usage = isObject(raw.usage) ? raw.usage : undefined;
  if (role === 'assistant' && usage) {
    const model = str(usage.model);
    if (model) m.model = model;
    m.usage = {
      apiMessageId: `${session.key}:${m.key}`,
      inputTokens: num(usage.inputTokens) ?? 0,
      outputTokens: num(usage.outputTokens) ?? 0,
      cacheReadTokens: num(usage.cacheReadInputTokens) ?? 0,
      cacheWriteTokens: num(usage.cacheCreationInputTokens) ?? 0,
    };
    if (model) m.usage.model = model;
  }
  return m;
}

export async function parseAmpFile(ctx: ParseContext): Promise<ParseOutput> {
  const out = emptyParseOutput();
  let doc: unknown;
  try {
    doc = JSON.parse((await readFile(ctx.path, 'utf8')).replace(/^\uFEFF/, ''));
  } catch (err) {
    out.malformed.push({ line: 1, reason: `invalid or truncated JSON document: ${(err as Error).message}` });
    return out;
  }
  if (!isObject(doc) || !Array.isArray(doc.messages) || !str(doc.id)?.startsWith('T-')) {
    return { ...out, notSession: 'JSON document without an Amp thread {id: "T-…", messages}: not an Amp thread' };
  }
  const session: ParsedSession = { key: str(doc.id) ?? basename(ctx.path, '.json'), agent: 'amp' };
  const title = str(doc.title)?.trim();
  if (title) session.title = title;
  const project = ampProject(doc.env);
  if (project) session.project = project;
  const mode = str(doc.agentMode);
  const created = isoMs(doc.created);
  if (mode || created) session.meta = { ...(mode ? { agentMode: mode } : {}), ...(created ? { created } : {}) };
  out.sessions.push(session);
  const times = ledgerTimes(doc.usageLedger);
  const toolNames = new Map<string, string>();
  doc.messages.forEach((raw: unknown, i: number) => {
    if (!isObject(raw)) {
      out.malformed.push({ line: i + 1, reason: 'thread message is not an object' });
      return;
    }
    const m = convert(raw, i, session, times, toolNames, out);
    if (m) out.messages.push(m);
  });
  return out;
}
