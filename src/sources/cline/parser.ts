// Owns parsing one Cline / Roo Code / Kilo Code task (`tasks/<id>/api_conversation_history.json`) into
// one session: messages keyed by their `ts` (else their position), dated by the history or by the UI
// messages beside it, with usage from each reply's `metrics.tokens` and the project from the injected
// environment details. Never throws on data.
import { readJsonSource } from '../../shared/long-json.js';
import type { ParseOutput, ParsedMessage, ParsedSession, TokenUsage } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { assistantBlocks, userBlocks } from './blocks.js';
import { productOf, sidecarPath, TASK_METADATA_FILE, taskIdOf, UI_MESSAGES_FILE } from './paths.js';
import { salvageArray } from './salvage.js';
import { cwdOfEnvironment, isObject, isoOf, metadataModels, num, str, uiTimes, type Json } from './schema.js';

function readJson(path: string): unknown {
  try {
    return JSON.parse(readJsonSource(path)) as unknown;
  } catch {
    return undefined;
  }
}

function usageOf(entry: Json, apiMessageId: string, model: string | undefined): TokenUsage | undefined {
  const metrics = isObject(entry.metrics) ? entry.metrics : undefined;
  const tokens = metrics && isObject(metrics.tokens) ? metrics.tokens : undefined;
  if (!tokens) return undefined;
  const usage: TokenUsage = {
    apiMessageId,
    inputTokens: num(tokens.prompt) ?? 0,
    outputTokens: num(tokens.completion) ?? 0,
    cacheReadTokens: num(tokens.cached) ?? 0,
    cacheWriteTokens: num(tokens.cacheWrites) ?? 0,
  };
  if (model) usage.model = model;
  return usage;
}

export function parseClineTask(path: string): ParseOutput {
  const out = emptyParseOutput();
  let text: string;
  try {
    text = readJsonSource(path);
  } catch (error) {
    return { ...out, notSession: `cannot read: ${(error as NodeJS.ErrnoException).code ?? 'error'}` };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = salvageArray(text);
    if (doc === undefined) return { ...out, notSession: 'not a Cline task history (a JSON array of messages)' };
    out.malformed.push({
      line: (doc as unknown[]).length + 1,
      reason: 'file cut short: its last message is incomplete',
    });
  }
  if (!Array.isArray(doc)) return { ...out, notSession: 'not a Cline task history (a JSON array of messages)' };

  const key = taskIdOf(path);
  const session: ParsedSession = { key, agent: 'cline' };
  const times = uiTimes(readJson(sidecarPath(path, UI_MESSAGES_FILE)));
  const models = new Set(metadataModels(readJson(sidecarPath(path, TASK_METADATA_FILE))));
  const skip = (type: string): void => {
    out.skipped[type] = (out.skipped[type] ?? 0) + 1;
  };
  const toolNames = new Map<string, string>();
  const keys = new Set<string>();

  doc.forEach((entry: unknown, i: number) => {
    const line = i + 1;
    if (!isObject(entry)) {
      out.malformed.push({ line, reason: 'message is not a JSON object' });
      return;
    }
    const role = str(entry.role);
    if (role !== 'user' && role !== 'assistant') {
      skip(`role:${role ?? 'missing'}`);
      return;
    }
    const converted =
      role === 'user' ? userBlocks(entry.content, toolNames, skip) : assistantBlocks(entry.content, toolNames, skip);
    if (converted.blocks.length === 0) {
      skip(`${role}:empty`);
      return;
    }
    const ts = num(entry.ts);
    let messageKey = ts !== undefined ? `ts:${ts}` : `i:${i}`;
    if (keys.has(messageKey)) messageKey = `i:${i}`;
    keys.add(messageKey);
    const message: ParsedMessage = {
      sessionKey: key,
      key: messageKey,
      role,
      kind: converted.kind,
      line,
      blocks: converted.blocks,
    };
    const timestamp = isoOf(ts ?? times.byIndex.get(i));
    if (timestamp) message.timestamp = timestamp;
    if (role === 'assistant') {
      const info = isObject(entry.modelInfo) ? entry.modelInfo : undefined;
      const model = str(info?.modelId);
      if (model) {
        message.model = model;
        models.add(model);
      }
      const usage = usageOf(entry, `${key}:${messageKey}`, model);
      if (usage) message.usage = usage;
    } else if (session.project === undefined) {
      for (const b of converted.blocks)
        if (b.noise === 'environment_details') session.project ??= cwdOfEnvironment(b.text);
    }
    out.messages.push(message);
  });

  const meta: Record<string, unknown> = { product: productOf(path) };
  if (models.size > 0) meta.models = [...models];
  const started = isoOf(times.first);
  if (started) meta.startedAt = started;
  session.meta = meta;
  out.sessions.push(session);
  return out;
}
