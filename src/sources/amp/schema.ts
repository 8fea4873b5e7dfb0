// Owns the shape of an Amp thread, read defensively: `{v, id: "T-…", created (ms), title, agentMode,
// env.initial.trees[{uri: "file://…"}], usageLedger.events[{timestamp, operationType, toMessageId}],
// messages[{role, messageId, content[], meta.sentAt, usage, state}]}`. Content parts are Anthropic-like:
// `text`, `thinking`, `tool_use {id, name, input}`, `tool_result {toolUseID, run: {status, result, error}}`.
import { fileURLToPath } from 'node:url';
import type { Block } from '../../shared/model.js';
import { isObject, num, str, type Json } from '../json-guards.js';
import { toolCallBlock, toolResultBlock } from '../tool-blocks.js';

export { isObject, num, str, type Json };

export function isoMs(value: unknown): string | undefined {
  const ms = num(value);
  return ms !== undefined && ms > 0 && ms < 8.64e15 ? new Date(ms).toISOString() : undefined;
}

/** The first workspace tree of the thread's environment, as a path. */
export function ampProject(env: unknown): string | undefined {
  const initial = isObject(env) && isObject(env.initial) ? env.initial : undefined;
  const trees = initial && Array.isArray(initial.trees) ? initial.trees.filter(isObject) : [];
  const uri = trees.length > 0 ? str(trees[0]!.uri) : undefined;
  if (!uri?.startsWith('file://')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** Inference times by the assistant message they produced (`usageLedger`). */
export function ledgerTimes(ledger: unknown): Map<number, string> {
  const times = new Map<number, string>();
  const events = isObject(ledger) && Array.isArray(ledger.events) ? ledger.events.filter(isObject) : [];
  for (const e of events) {
    const to = num(e.toMessageId);
    const at = str(e.timestamp);
    if (to !== undefined && at && e.operationType === 'inference' && !Number.isNaN(Date.parse(at)))
      times.set(to, new Date(at).toISOString());
  }
  return times;
}

/** A tool run's output as text: a string, lines, `{output}` of a shell, else JSON. */
export function runText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('\n');
  if (isObject(value) && typeof value.output === 'string') return value.output;
  return JSON.stringify(value);
}

export type PartResult = { block?: Block; skipped?: string };

export function partBlock(part: unknown, toolNames: Map<string, string>): PartResult {
  if (!isObject(part)) return { skipped: 'part:not_an_object' };
  const type = str(part.type) ?? 'untyped';
  switch (type) {
    case 'text': {
      const text = str(part.text);
      return text?.trim() ? { block: { kind: 'text', text } } : { skipped: 'part:text:empty' };
    }
    case 'thinking': {
      const text = str(part.thinking);
      return text?.trim() ? { block: { kind: 'thinking', text } } : { skipped: 'part:thinking:empty' };
    }
    case 'redacted_thinking':
      return { skipped: 'part:redacted_thinking' };
    case 'tool_use': {
      return { block: toolCallBlock(str(part.name) ?? 'unknown', part.input ?? {}, str(part.id), toolNames) };
    }
    case 'tool_result': {
      const run = isObject(part.run) ? part.run : {};
      const status = str(run.status);
      const failed = status === 'error' || status === 'rejected-by-user' || status === 'cancelled';
      const text = runText(run.result) || runText(run.error) || runText(run.progress) || status || '';
      const block = toolResultBlock(text, str(part.toolUseID), toolNames);
      if (failed) block.isError = true;
      if (status && status !== 'done') block.meta = { status };
      return { block };
    }
    case 'image':
      return { block: { kind: 'image', text: '', meta: { type } } };
    default: {
      // A newer part that carries text is kept as text.
      const text = str(part.text);
      return text?.trim() ? { block: { kind: 'text', text } } : { skipped: `part:${type}` };
    }
  }
}
