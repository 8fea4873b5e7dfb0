// Owns converting Copilot CLI events into messages: `user.message` (typed text), `assistant.message`
// (reasoning, text and tool requests), `tool.execution_complete` (results), `session.error`, and the
// token totals of `session.shutdown` as usage. Everything else is counted by type.
import type { Block, ParsedMessage, TokenUsage } from '../../shared/model.js';
import { stringifyJson } from '../../shared/bounded-json.js';
import { type CopilotEvent, isObject, num, str, toolArguments, typedText } from './schema.js';

export interface EventContext {
  sessionKey: string;
  line: number;
  /** toolCallId → tool name, for results. */
  toolNames: Map<string, string>;
  skip(type: string): void;
}

function base(event: CopilotEvent, ctx: EventContext, role: ParsedMessage['role'], kind: ParsedMessage['kind']) {
  const m: ParsedMessage = {
    sessionKey: ctx.sessionKey,
    key: event.id ?? `line:${ctx.line}`,
    role,
    kind,
    line: ctx.line,
    blocks: [],
  };
  if (event.timestamp) m.timestamp = event.timestamp;
  return m;
}

function assistant(event: CopilotEvent, ctx: EventContext): ParsedMessage | undefined {
  const m = base(event, ctx, 'assistant', 'response');
  const d = event.data;
  const reasoning = str(d.reasoningText);
  if (reasoning?.trim()) m.blocks.push({ kind: 'thinking', text: reasoning });
  const content = str(d.content);
  if (content?.trim()) m.blocks.push({ kind: 'text', text: content });
  for (const r of Array.isArray(d.toolRequests) ? d.toolRequests : []) {
    if (!isObject(r)) continue;
    const name = str(r.name) ?? 'unknown';
    const id = str(r.toolCallId) ?? '';
    if (id) ctx.toolNames.set(id, name);
    const input = toolArguments(r.arguments);
    m.blocks.push({
      kind: 'tool_call',
      text: stringifyJson(input) ?? '',
      toolName: name,
      toolCallId: id,
      toolInput: input,
    });
  }
  const model = str(d.model);
  if (model) m.model = model;
  return m.blocks.length > 0 ? m : undefined;
}

function toolResult(event: CopilotEvent, ctx: EventContext): ParsedMessage {
  const m = base(event, ctx, 'tool', 'tool_output');
  const d = event.data;
  const result = isObject(d.result) ? d.result : undefined;
  const error = isObject(d.error) ? d.error : undefined;
  const text = str(result?.content) ?? str(error?.message) ?? (result ? (stringifyJson(result) ?? '') : '');
  const block: Block = { kind: 'tool_result', text };
  const id = str(d.toolCallId);
  if (id) {
    block.toolCallId = id;
    const name = ctx.toolNames.get(id);
    if (name) block.toolName = name;
  }
  if (d.success === false) block.isError = true;
  m.blocks.push(block);
  return m;
}

/** One usage carrier per model of a process run (Copilot reports tokens only when the run ends). */
function shutdownUsage(event: CopilotEvent, ctx: EventContext): ParsedMessage[] {
  const metrics = isObject(event.data.modelMetrics) ? event.data.modelMetrics : {};
  const out: ParsedMessage[] = [];
  for (const [model, value] of Object.entries(metrics)) {
    const usage = isObject(value) && isObject(value.usage) ? value.usage : undefined;
    if (!usage) continue;
    const cacheRead = num(usage.cacheReadTokens) ?? 0;
    const cacheWrite = num(usage.cacheWriteTokens) ?? 0;
    const tokens: TokenUsage = {
      apiMessageId: `${ctx.sessionKey}:${event.id ?? `line:${ctx.line}`}:${model}`,
      model,
      // inputTokens counts cached reads and writes too.
      inputTokens: Math.max(0, (num(usage.inputTokens) ?? 0) - cacheRead - cacheWrite),
      outputTokens: num(usage.outputTokens) ?? 0,
      cacheReadTokens: cacheRead,
      cacheWriteTokens: cacheWrite,
    };
    const m = base(event, ctx, 'assistant', 'system');
    m.key = `${m.key}:${model}`;
    m.usage = tokens;
    m.model = model;
    m.meta = { usageOnly: true };
    out.push(m);
  }
  return out;
}

export function convertEvent(event: CopilotEvent, ctx: EventContext): ParsedMessage[] {
  switch (event.type) {
    case 'user.message': {
      const text = typedText(str(event.data.content) ?? '');
      if (!text) {
        ctx.skip('user.message:empty');
        return [];
      }
      const m = base(event, ctx, 'user', 'prompt');
      m.blocks.push({ kind: 'text', text });
      return [m];
    }
    case 'assistant.message': {
      const m = assistant(event, ctx);
      if (!m) ctx.skip('assistant.message:empty');
      return m ? [m] : [];
    }
    case 'tool.execution_start': {
      const id = str(event.data.toolCallId);
      const name = str(event.data.toolName);
      if (id && name) ctx.toolNames.set(id, name);
      ctx.skip(event.type);
      return [];
    }
    case 'tool.execution_complete':
      return [toolResult(event, ctx)];
    case 'session.error': {
      const m = base(event, ctx, 'system', 'error');
      m.blocks.push({ kind: 'system', text: str(event.data.message) ?? 'error' });
      return [m];
    }
    case 'session.shutdown': {
      const usage = shutdownUsage(event, ctx);
      if (usage.length === 0) ctx.skip(event.type);
      return usage;
    }
    default:
      ctx.skip(event.type);
      return [];
  }
}
