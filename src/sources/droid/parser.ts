// Owns parsing one Factory Droid transcript (FileAdapter: Droid rewrites the first line when the title
// changes). `session_start` names the session (id, title, cwd); `message` records hold Anthropic-style
// content (`text`, `thinking`, `tool_use`, `tool_result`, images); `compaction_state` records hold a summary.
// A user record of injected `<system-reminder>` context (its id starts with `context-`) is context, not a prompt.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Block, ParsedMessage, ParsedSession, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { isObject, type Json, num, str } from '../json-guards.js';
import { toolCallBlock, toolResultBlock } from '../tool-blocks.js';
import type { ParseContext } from '../types.js';
import { droidSettings } from './paths.js';

function count(out: ParseOutput, type: string): void {
  out.skipped[type] = (out.skipped[type] ?? 0) + 1;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content
    .map((c) => (isObject(c) ? (str(c.text) ?? (c.type === 'image' ? '[image]' : '')) : ''))
    .filter((t) => t !== '')
    .join('\n');
}

function partBlock(part: unknown, toolNames: Map<string, string>, out: ParseOutput): Block | undefined {
  if (!isObject(part)) return void count(out, 'part:not_an_object');
  const type = str(part.type) ?? 'untyped';
  switch (type) {
    case 'text':
      return str(part.text)?.trim() ? { kind: 'text', text: part.text as string } : void count(out, 'part:text:empty');
    case 'thinking':
      return str(part.thinking)?.trim()
        ? { kind: 'thinking', text: part.thinking as string }
        : void count(out, 'part:thinking:empty');
    case 'tool_use':
      return toolCallBlock(str(part.name) ?? 'unknown', part.input ?? {}, str(part.id), toolNames);
    case 'tool_result': {
      const block = toolResultBlock(resultText(part.content), str(part.tool_use_id), toolNames);
      if (part.is_error === true) block.isError = true;
      return block;
    }
    case 'image':
    case 'document':
      return { kind: type, text: '', meta: { type } };
    default: {
      // A newer part that carries text is kept as text.
      const text = str(part.text);
      return text?.trim() ? { kind: 'text', text } : void count(out, `part:${type}`);
    }
  }
}

const isReminder = (b: Block) => b.kind === 'text' && b.text.trimStart().startsWith('<system-reminder>');

function message(record: Json, line: number, session: ParsedSession, toolNames: Map<string, string>, out: ParseOutput) {
  const body = isObject(record.message) ? record.message : {};
  const role = str(body.role);
  if (role !== 'user' && role !== 'assistant') return void count(out, `message:${role ?? 'missing'}`);
  const id = str(record.id) ?? `line:${line}`;
  const m: ParsedMessage = { sessionKey: session.key, key: id, role, kind: 'response', line, blocks: [] };
  const content = typeof body.content === 'string' ? [{ type: 'text', text: body.content }] : body.content;
  for (const part of Array.isArray(content) ? content : []) {
    const block = partBlock(part, toolNames, out);
    if (block) m.blocks.push(block);
  }
  if (m.blocks.length === 0) return void count(out, `message:${role}:empty`);
  if (role === 'user') {
    if (!m.blocks.some((b) => b.kind === 'text')) Object.assign(m, { role: 'tool', kind: 'tool_output' });
    else if (id.startsWith('context-') || m.blocks.every((b) => b.kind !== 'text' || isReminder(b))) m.kind = 'meta';
    else m.kind = 'prompt';
  }
  const at = str(record.timestamp);
  if (at && !Number.isNaN(Date.parse(at))) m.timestamp = new Date(at).toISOString();
  const model = str(body.modelId);
  if (model && role === 'assistant') m.model = model;
  out.messages.push(m);
}

function compaction(record: Json, line: number, session: ParsedSession, out: ParseOutput): void {
  const text = str(record.summaryText);
  if (!text?.trim()) return void count(out, 'compaction_state:empty');
  const m: ParsedMessage = {
    sessionKey: session.key,
    key: str(record.id) ?? `compaction:${line}`,
    role: 'assistant',
    kind: 'compaction',
    line,
    blocks: [{ kind: 'summary', text }],
  };
  const at = str(record.timestamp);
  if (at && !Number.isNaN(Date.parse(at))) m.timestamp = new Date(at).toISOString();
  out.messages.push(m);
}

function sessionMeta(path: string): Record<string, unknown> | undefined {
  const settings = droidSettings(path);
  if (!settings) return undefined;
  const meta: Record<string, unknown> = {};
  if (str(settings.model)) meta.model = settings.model;
  const usage = isObject(settings.tokenUsage) ? settings.tokenUsage : undefined;
  if (usage && num(usage.outputTokens) !== undefined) meta.tokenUsage = usage;
  return Object.keys(meta).length > 0 ? meta : undefined;
}

export async function parseDroidFile(ctx: ParseContext): Promise<ParseOutput> {
  const out = emptyParseOutput();
  let text: string;
  try {
    text = await readFile(ctx.path, 'utf8');
  } catch (err) {
    return { ...out, malformed: [{ line: 0, reason: `unreadable: ${(err as Error).message}` }] };
  }
  const session: ParsedSession = { key: basename(ctx.path, '.jsonl'), agent: 'droid' };
  const toolNames = new Map<string, string>();
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let record: unknown;
    try {
      record = JSON.parse(raw.replace(/^\uFEFF/, ''));
    } catch {
      out.malformed.push({ line: i + 1, reason: 'invalid JSON' });
      return;
    }
    const type = isObject(record) ? str(record.type) : undefined;
    if (!isObject(record) || !type) {
      out.malformed.push({ line: i + 1, reason: 'not a Droid record (no type)' });
      return;
    }
    if (type === 'session_start') {
      const title = (str(record.title) ?? str(record.sessionTitle))?.trim();
      if (title) session.title = title;
      const project = str(record.cwd);
      if (project) session.project = project;
      const parent = str(record.parent);
      if (parent) session.meta = { ...session.meta, parent };
    } else if (type === 'message') message(record, i + 1, session, toolNames, out);
    else if (type === 'compaction_state') compaction(record, i + 1, session, out);
    else count(out, type);
  });
  const meta = sessionMeta(ctx.path);
  if (meta) session.meta = { ...session.meta, ...meta };
  out.sessions.push(session);
  return out;
}
