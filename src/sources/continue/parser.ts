// Owns parsing one Continue session (FileAdapter: the JSON document is rewritten whole). `history` items
// hold a chat message: `user` (text or parts), `assistant` (text, `toolCalls`), `thinking`, `tool` results
// (`toolCallId`). Messages carry no times: all are dated at the creation time in `sessions.json`.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Block, ParsedMessage, ParsedSession, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { isObject, type Json, str } from '../json-guards.js';
import type { ParseContext } from '../types.js';
import { continueCreatedAt } from './paths.js';

/** Continue's name for a session nobody named yet. */
const PLACEHOLDER_TITLE = /^New Session$/i;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObject(p) ? (str(p.text) ?? '') : '')).join('\n');
}

function projectOf(dir: string | undefined): string | undefined {
  if (!dir) return undefined;
  if (!dir.startsWith('file://')) return dir;
  try {
    return fileURLToPath(dir);
  } catch {
    return undefined;
  }
}

function toolCalls(message: Json): Block[] {
  const calls = Array.isArray(message.toolCalls) ? message.toolCalls : [];
  return calls.filter(isObject).map((call) => {
    const fn = isObject(call.function) ? call.function : {};
    let input: unknown = str(fn.arguments) ?? '';
    try {
      input = JSON.parse(input as string);
    } catch {
      // arguments that are not JSON stay text
    }
    return {
      kind: 'tool_call',
      text: typeof input === 'string' ? input : JSON.stringify(input),
      toolName: str(fn.name) ?? 'unknown',
      toolCallId: str(call.id) ?? '',
      toolInput: input,
    } satisfies Block;
  });
}

function convert(message: Json, m: ParsedMessage): boolean {
  const role = str(message.role);
  const text = textOf(message.content);
  if (role === 'user') {
    if (text.trim()) m.blocks.push({ kind: 'text', text });
  } else if (role === 'assistant') {
    Object.assign(m, { role: 'assistant', kind: 'response' });
    if (text.trim()) m.blocks.push({ kind: 'text', text });
    m.blocks.push(...toolCalls(message));
  } else if (role === 'thinking') {
    Object.assign(m, { role: 'assistant', kind: 'response' });
    if (text.trim()) m.blocks.push({ kind: 'thinking', text });
  } else if (role === 'tool') {
    Object.assign(m, { role: 'tool', kind: 'tool_output' });
    m.blocks.push({ kind: 'tool_result', text, toolCallId: str(message.toolCallId) ?? '' });
  } else return false;
  return true;
}

export async function parseContinueFile(ctx: ParseContext): Promise<ParseOutput> {
  const out = emptyParseOutput();
  let doc: unknown;
  try {
    doc = JSON.parse((await readFile(ctx.path, 'utf8')).replace(/^\uFEFF/, ''));
  } catch (err) {
    out.malformed.push({ line: 1, reason: `invalid or truncated JSON document: ${(err as Error).message}` });
    return out;
  }
  if (!isObject(doc) || !Array.isArray(doc.history)) {
    return { ...out, notSession: 'JSON document without Continue {sessionId, history}: not a Continue session' };
  }
  const session: ParsedSession = { key: str(doc.sessionId) ?? basename(ctx.path, '.json'), agent: 'continue' };
  const title = str(doc.title)?.trim();
  if (title && !PLACEHOLDER_TITLE.test(title)) session.title = title;
  const project = projectOf(str(doc.workspaceDirectory));
  if (project) session.project = project;
  out.sessions.push(session);
  const created = continueCreatedAt(ctx.path, session.key);
  doc.history.forEach((item: unknown, i: number) => {
    const message = isObject(item) && isObject(item.message) ? item.message : undefined;
    if (!message) {
      out.malformed.push({ line: i + 1, reason: 'history item without a message' });
      return;
    }
    const m: ParsedMessage = {
      sessionKey: session.key,
      key: str(message.id) ?? `i:${i}`,
      role: 'user',
      kind: 'prompt',
      line: i + 1,
      blocks: [],
    };
    if (created) m.timestamp = created;
    const known = convert(message, m);
    const type = `role:${str(message.role) ?? 'missing'}`;
    if (!known) out.skipped[type] = (out.skipped[type] ?? 0) + 1;
    else if (m.blocks.length === 0) out.skipped[`${type}:empty`] = (out.skipped[`${type}:empty`] ?? 0) + 1;
    else out.messages.push(m);
  });
  return out;
}
