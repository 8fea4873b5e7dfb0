// Owns parsing one Kimi CLI wire file (FileAdapter: a tool call's arguments stream in over later lines, so
// the file is read whole). A turn's input is a prompt; each step is one reply (thinking, text, tool calls,
// the step's token usage); tool results are tool output. A SubagentEvent's events form a subagent session
// linked to this one. Approvals, questions, interruptions and turn ends are counted by type.
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Block, ParsedMessage, ParsedSession, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import type { ParseContext } from '../types.js';
import { kimiCustomTitle, kimiWorkDirOf } from './paths.js';
import { asWireEvent, isObject, num, partsText, str, type WireEvent } from './schema.js';

/** One conversation being rebuilt: the session itself or one subagent. */
interface Scope {
  session: ParsedSession;
  step?: ParsedMessage;
  lastCall?: Block;
  toolNames: Map<string, string>;
}

class WireReader {
  readonly out = emptyParseOutput();
  private readonly scopes = new Map<string, Scope>();
  private readonly rawArgs = new Map<Block, string>();

  constructor(private readonly main: Scope) {
    this.out.sessions.push(main.session);
  }

  skip(type: string): void {
    this.out.skipped[type] = (this.out.skipped[type] ?? 0) + 1;
  }

  private message(
    scope: Scope,
    key: string,
    role: ParsedMessage['role'],
    kind: ParsedMessage['kind'],
    e: WireEvent,
    line: number,
  ) {
    const m: ParsedMessage = { sessionKey: scope.session.key, key, role, kind, line, blocks: [] };
    if (e.timestamp) m.timestamp = e.timestamp;
    if (scope !== this.main) m.isSidechain = true;
    this.out.messages.push(m);
    return m;
  }

  private subagent(payload: Record<string, unknown>): Scope | undefined {
    const id = str(payload.agent_id) ?? str(payload.parent_tool_call_id) ?? str(payload.task_tool_call_id);
    if (!id) return undefined;
    let scope = this.scopes.get(id);
    if (!scope) {
      const session: ParsedSession = {
        key: `${id}@${this.main.session.key}`,
        agent: 'kimi',
        parentKey: this.main.session.key,
        relation: 'subagent',
        meta: { toolCallId: str(payload.parent_tool_call_id) ?? str(payload.task_tool_call_id) ?? id },
      };
      if (this.main.session.project) session.project = this.main.session.project;
      const type = str(payload.subagent_type);
      if (type) session.meta = { ...session.meta, subagentType: type };
      scope = { session, toolNames: new Map() };
      this.scopes.set(id, scope);
      this.out.sessions.push(session);
    }
    return scope;
  }

  event(e: WireEvent, line: number, scope: Scope = this.main): void {
    const p = e.payload;
    switch (e.type) {
      case 'TurnBegin':
      case 'SteerInput': {
        scope.step = undefined;
        const text = partsText(p.user_input).trim();
        if (!text) return this.skip(`${e.type}:empty`);
        const sub = scope !== this.main;
        const m = this.message(scope, `turn:${line}`, 'user', sub ? 'meta' : 'prompt', e, line);
        m.blocks.push({ kind: 'text', text });
        if (sub) m.meta = { subagentPrompt: true };
        return;
      }
      case 'StepBegin':
        scope.step = this.message(scope, `step:${line}`, 'assistant', 'response', e, line);
        return;
      case 'ContentPart': {
        const step = scope.step ?? (scope.step = this.message(scope, `step:${line}`, 'assistant', 'response', e, line));
        const think = str(p.think);
        const text = str(p.text);
        if (p.type === 'think' && think?.trim()) step.blocks.push({ kind: 'thinking', text: think });
        else if (text?.trim()) step.blocks.push({ kind: 'text', text });
        else this.skip(`ContentPart:${str(p.type) ?? 'untyped'}`);
        return;
      }
      case 'ToolCall': {
        const step = scope.step ?? (scope.step = this.message(scope, `step:${line}`, 'assistant', 'response', e, line));
        const fn = isObject(p.function) ? p.function : {};
        const name = str(fn.name) ?? 'unknown';
        const id = str(p.id) ?? `line:${line}`;
        scope.toolNames.set(id, name);
        const block: Block = { kind: 'tool_call', text: '', toolName: name, toolCallId: id };
        this.rawArgs.set(block, str(fn.arguments) ?? '');
        scope.lastCall = block;
        step.blocks.push(block);
        return;
      }
      case 'ToolCallPart': {
        const part = str(p.arguments_part);
        if (scope.lastCall && part !== undefined)
          this.rawArgs.set(scope.lastCall, (this.rawArgs.get(scope.lastCall) ?? '') + part);
        else this.skip('ToolCallPart:orphan');
        return;
      }
      case 'ToolResult':
        return this.toolResult(scope, e, line);
      case 'StatusUpdate': {
        const u = isObject(p.token_usage) ? p.token_usage : undefined;
        if (!u) return this.skip('StatusUpdate:no-usage');
        const step = scope.step ?? (scope.step = this.message(scope, `step:${line}`, 'assistant', 'response', e, line));
        step.usage = {
          apiMessageId: str(p.message_id) ?? `${scope.session.key}:${line}`,
          inputTokens: num(u.input_other) ?? 0,
          outputTokens: num(u.output) ?? 0,
          cacheReadTokens: num(u.input_cache_read) ?? 0,
          cacheWriteTokens: num(u.input_cache_creation) ?? 0,
        };
        return;
      }
      case 'SubagentEvent': {
        const sub = this.subagent(p);
        const inner = asWireEvent(p.event);
        if (!sub || !inner) return this.skip('SubagentEvent:unreadable');
        if (e.timestamp) inner.timestamp = e.timestamp;
        return this.event(inner, line, sub);
      }
      default:
        return this.skip(e.type);
    }
  }

  private toolResult(scope: Scope, e: WireEvent, line: number): void {
    const p = e.payload;
    const id = str(p.tool_call_id);
    const rv = isObject(p.return_value) ? p.return_value : {};
    const output = partsText(rv.output);
    const block: Block = { kind: 'tool_result', text: output.trim() ? output : (str(rv.message) ?? '') };
    if (id) {
      block.toolCallId = id;
      const name = scope.toolNames.get(id);
      if (name) block.toolName = name;
    }
    if (rv.is_error === true) block.isError = true;
    this.message(scope, id ? `result:${id}` : `result:${line}`, 'tool', 'tool_output', e, line).blocks.push(block);
  }

  /** Parses the streamed arguments and drops replies left without content. */
  finish(): ParseOutput {
    for (const [block, raw] of this.rawArgs) {
      let input: unknown = raw;
      try {
        input = raw ? (JSON.parse(raw) as unknown) : {};
      } catch {
        // arguments cut short by an interruption stay the raw text
      }
      block.toolInput = input;
      block.text = typeof input === 'string' ? input : JSON.stringify(input);
    }
    const before = this.out.messages.length;
    this.out.messages = this.out.messages.filter((m) => m.blocks.length > 0 || m.usage);
    const empty = before - this.out.messages.length;
    if (empty > 0) this.out.skipped['StepBegin:empty'] = empty;
    return this.out;
  }
}

export async function parseKimiFile(ctx: ParseContext): Promise<ParseOutput> {
  let text: string;
  try {
    text = await readFile(ctx.path, 'utf8');
  } catch (err) {
    return { ...emptyParseOutput(), malformed: [{ line: 0, reason: `unreadable: ${(err as Error).message}` }] };
  }
  const session: ParsedSession = { key: basename(dirname(ctx.path)), agent: 'kimi' };
  const project = kimiWorkDirOf(ctx.path);
  if (project) session.project = project;
  const title = kimiCustomTitle(ctx.path);
  if (title) session.title = title;
  const reader = new WireReader({ session, toolNames: new Map() });
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      reader.out.malformed.push({ line: i + 1, reason: 'invalid JSON' });
      return;
    }
    if (isObject(value) && value.type === 'metadata') {
      const version = str(value.protocol_version);
      if (version) session.meta = { protocolVersion: version };
      return;
    }
    const event = isObject(value) ? asWireEvent(value.message, num(value.timestamp)) : undefined;
    if (event) reader.event(event, i + 1);
    else reader.out.malformed.push({ line: i + 1, reason: 'not a Kimi CLI wire record (no message type)' });
  });
  return reader.finish();
}
