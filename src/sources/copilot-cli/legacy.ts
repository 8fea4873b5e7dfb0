// Owns the oldest Copilot CLI session files, `history-session-state/session_<id>_<ms>.json`: one JSON
// document `{sessionId, startTime, chatMessages}` of OpenAI-style chat messages (user, assistant with
// `tool_calls`, tool results by `tool_call_id`). Messages are keyed by their position.
import type { Block, ParsedMessage, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { stringifyJson } from '../../shared/bounded-json.js';
import { isObject, str, toolArguments, typedText, type Json } from './schema.js';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObject(p) ? (str(p.text) ?? '') : '')).join('\n');
}

function convert(entry: Json, i: number, key: string, toolNames: Map<string, string>): ParsedMessage | string {
  const role = str(entry.role);
  const blocks: Block[] = [];
  const m = (r: ParsedMessage['role'], kind: ParsedMessage['kind']): ParsedMessage => ({
    sessionKey: key,
    key: `i:${i}`,
    role: r,
    kind,
    line: i + 1,
    blocks,
  });
  if (role === 'user') {
    const text = typedText(textOf(entry.content));
    if (!text) return 'user:empty';
    blocks.push({ kind: 'text', text });
    return m('user', 'prompt');
  }
  if (role === 'assistant') {
    const text = textOf(entry.content);
    if (text.trim()) blocks.push({ kind: 'text', text });
    for (const call of Array.isArray(entry.tool_calls) ? entry.tool_calls : []) {
      if (!isObject(call)) continue;
      const fn = isObject(call.function) ? call.function : {};
      const name = str(fn.name) ?? 'unknown';
      const id = str(call.id) ?? '';
      if (id) toolNames.set(id, name);
      const input = toolArguments(fn.arguments);
      blocks.push({
        kind: 'tool_call',
        text: stringifyJson(input) ?? '',
        toolName: name,
        toolCallId: id,
        toolInput: input,
      });
    }
    return blocks.length > 0 ? m('assistant', 'response') : 'assistant:empty';
  }
  if (role === 'tool') {
    const id = str(entry.tool_call_id);
    const block: Block = { kind: 'tool_result', text: textOf(entry.content) };
    if (id) {
      block.toolCallId = id;
      const name = toolNames.get(id);
      if (name) block.toolName = name;
    }
    blocks.push(block);
    return m('tool', 'tool_output');
  }
  return `role:${role ?? 'missing'}`;
}

export function parseLegacySession(doc: unknown, fallbackKey: string): ParseOutput {
  const out = emptyParseOutput();
  if (!isObject(doc) || !Array.isArray(doc.chatMessages)) {
    return { ...out, notSession: 'not a Copilot CLI session (no chatMessages)' };
  }
  const key = str(doc.sessionId) ?? fallbackKey;
  const start = str(doc.startTime);
  out.sessions.push({
    key,
    agent: 'copilot-cli',
    meta: { format: 'history-session-state', ...(start ? { startedAt: start } : {}) },
  });
  const toolNames = new Map<string, string>();
  doc.chatMessages.forEach((entry: unknown, i: number) => {
    if (!isObject(entry)) {
      out.malformed.push({ line: i + 1, reason: 'message is not a JSON object' });
      return;
    }
    const result = convert(entry, i, key, toolNames);
    if (typeof result === 'string') out.skipped[result] = (out.skipped[result] ?? 0) + 1;
    else {
      // The file keeps no time per message: all are dated at the session start.
      if (start) result.timestamp = start;
      out.messages.push(result);
    }
  });
  return out;
}
