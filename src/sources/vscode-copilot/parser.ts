// Owns parsing one VS Code Copilot Chat session (or exported chat) into a session: each request is a
// prompt (`message.text`) and a reply built from its `response` parts — text values (with inline
// references as their file names), `toolInvocationSerialized` as tool calls named by tool id, and
// `textEditGroup` as edit calls on their file. Other part kinds are counted. Keys are request ids.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Block, ParsedMessage, ParseOutput, ParsedSession } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { isObject, messageText, num, str, uriPath, type Json } from './schema.js';
import { workspaceFolderOf } from './paths.js';

function responseBlocks(parts: unknown[], skip: (kind: string) => void): Block[] {
  const blocks: Block[] = [];
  let text = '';
  const flush = () => {
    if (text.trim()) blocks.push({ kind: 'text', text });
    text = '';
  };
  for (const part of parts) {
    if (!isObject(part)) continue;
    const kind = str(part.kind);
    if (kind === undefined && typeof part.value === 'string') text += part.value;
    else if (kind === 'inlineReference') {
      const path = uriPath(part.inlineReference) ?? str(part.name);
      if (path) text += basename(path);
    } else if (kind === 'toolInvocationSerialized') {
      flush();
      const name = str(part.toolId) ?? 'tool';
      const said = messageText(part.pastTenseMessage) ?? messageText(part.invocationMessage) ?? '';
      const block: Block = { kind: 'tool_call', text: said, toolName: name };
      const id = str(part.toolCallId);
      if (id) block.toolCallId = id;
      blocks.push(block);
    } else if (kind === 'textEditGroup') {
      flush();
      const path = uriPath(part.uri);
      const edits = Array.isArray(part.edits) ? part.edits.flat().filter(isObject) : [];
      const content = edits.map((e) => str(e.text) ?? '').join('');
      const input = { file_path: path, content };
      blocks.push({ kind: 'tool_call', text: path ?? '', toolName: 'textEditGroup', toolInput: input });
    } else skip(`response:${kind ?? 'untyped'}`);
  }
  flush();
  return blocks;
}

export function parseVscodeChat(path: string): ParseOutput {
  const out = emptyParseOutput();
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ...out, notSession: code ? `cannot read: ${code}` : 'not a VS Code chat session (invalid JSON)' };
  }
  if (!isObject(doc) || !Array.isArray(doc.requests)) {
    return { ...out, notSession: 'not a VS Code chat session (no requests)' };
  }
  const requests = doc.requests as unknown[];
  const firstId = requests.map((r) => (isObject(r) ? str(r.requestId) : undefined)).find(Boolean);
  const key = str(doc.sessionId) ?? firstId ?? basename(path, '.json');
  const session: ParsedSession = { key, agent: 'vscode-copilot' };
  const title = str(doc.customTitle);
  if (title) session.title = title;
  const project = workspaceFolderOf(path);
  if (project) session.project = project;
  session.meta = { format: str(doc.sessionId) ? 'chatSessions' : 'export' };
  const skip = (kind: string) => {
    out.skipped[kind] = (out.skipped[kind] ?? 0) + 1;
  };
  requests.forEach((entry, i) => {
    if (!isObject(entry)) {
      out.malformed.push({ line: i + 1, reason: 'request is not a JSON object' });
      return;
    }
    const r = entry as Json;
    const id = str(r.requestId) ?? `i:${i}`;
    const ts = num(r.timestamp);
    const timestamp = ts !== undefined ? new Date(ts).toISOString() : undefined;
    const base = { sessionKey: key, line: i + 1, ...(timestamp ? { timestamp } : {}) };
    const prompt = isObject(r.message) ? str(r.message.text) : undefined;
    if (prompt?.trim()) {
      out.messages.push({
        ...base,
        key: `${id}:user`,
        role: 'user',
        kind: 'prompt',
        blocks: [{ kind: 'text', text: prompt }],
      });
    } else skip('request:no_message');
    const blocks = responseBlocks(Array.isArray(r.response) ? r.response : [], skip);
    if (blocks.length === 0) return;
    const reply: ParsedMessage = { ...base, key: `${id}:response`, role: 'assistant', kind: 'response', blocks };
    const model = str(r.modelId);
    if (model) reply.model = model;
    if (r.isCanceled === true) reply.meta = { canceled: true };
    out.messages.push(reply);
  });
  out.sessions.push(session);
  return out;
}
