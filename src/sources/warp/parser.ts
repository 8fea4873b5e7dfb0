// Owns reading Warp's `warp.sqlite` read-only: one session per agent conversation, its prompts from
// `ai_queries.input` (`[{Query: {text}}]`; exchanges with no query continue the agent's work), dated by
// `start_ts`, with the working directory and model of each. The agent's replies and tool calls are in
// `agent_tasks.task`, protobuf whose schema Warp does not publish: counted, not read.
import { StrataError } from '../../shared/errors.js';
import type { ParsedMessage, ParsedSession, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { isObject, num, str, type Json } from '../json-guards.js';
import { type Db, withDatabase } from '../sqlite-snapshot.js';

function tables(db: Db): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

/** `2025-12-31 19:09:31.418070496` (UTC, as Warp's Diesel writes it) as ISO. */
function warpTime(value: unknown): string | undefined {
  const text = str(value);
  if (!text) return undefined;
  const ms = Date.parse(`${text.replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1')}Z`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** The texts a query's `input` asks: `[{Query: {text}}]`, or a bare `{Query}`. */
function queryTexts(input: unknown): string[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(String(input));
  } catch {
    return undefined;
  }
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item) => {
    const query = isObject(item) && isObject(item.Query) ? item.Query : undefined;
    const text = str(query?.text);
    return text?.trim() ? [text] : [];
  });
}

function conversationMeta(raw: unknown): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(String(raw));
  } catch {
    return {};
  }
  const usage = isObject(data) && isObject(data.conversation_usage_metadata) ? data.conversation_usage_metadata : {};
  const tokens = Array.isArray(usage.token_usage) ? usage.token_usage.filter(isObject) : [];
  const meta: Record<string, unknown> = {};
  const total = tokens.reduce((n, t) => n + (num(t.total_tokens) ?? 0), 0);
  if (total > 0) meta.totalTokens = total;
  if (num(usage.credits_spent) !== undefined) meta.credits = usage.credits_spent;
  if (isObject(usage.tool_usage_metadata)) meta.toolUsage = usage.tool_usage_metadata;
  return meta;
}

function readDatabase(db: Db): ParseOutput {
  const out = emptyParseOutput();
  const t = tables(db);
  if (!t.has('ai_queries')) return { ...out, notSession: 'SQLite database without Warp’s ai_queries table' };
  const rows = db.prepare('SELECT * FROM ai_queries ORDER BY start_ts, id').all() as Json[];
  const sessions = new Map<string, ParsedSession>();
  const lines = new Map<string, number>();
  for (const row of rows) {
    const key = str(row.conversation_id);
    if (!key) continue;
    const line = (lines.get(key) ?? 0) + 1;
    lines.set(key, line);
    const texts = queryTexts(row.input);
    if (!texts) {
      out.malformed.push({ line, reason: `exchange ${String(row.exchange_id)}: input is not JSON` });
      continue;
    }
    if (texts.length === 0) {
      out.skipped['exchange:no_query'] = (out.skipped['exchange:no_query'] ?? 0) + 1;
      continue;
    }
    const message: ParsedMessage = {
      sessionKey: key,
      key: str(row.exchange_id) ?? `line:${line}`,
      role: 'user',
      kind: 'prompt',
      line,
      blocks: texts.map((text) => ({ kind: 'text', text })),
    };
    const timestamp = warpTime(row.start_ts);
    if (timestamp) message.timestamp = timestamp;
    const status = str(row.output_status);
    if (status) message.meta = { outputStatus: status.replace(/^"|"$/g, '') };
    out.messages.push(message);
    const session = sessions.get(key) ?? { key, agent: 'warp' };
    const cwd = str(row.working_directory);
    if (cwd && !session.project) session.project = cwd;
    const model = str(row.model_id);
    if (model) session.meta = { ...session.meta, model };
    sessions.set(key, session);
  }
  if (t.has('agent_conversations')) {
    const conversations = db.prepare('SELECT conversation_id, conversation_data FROM agent_conversations').all();
    for (const c of conversations as Json[]) {
      const session = sessions.get(String(c.conversation_id));
      if (session) session.meta = { ...session.meta, ...conversationMeta(c.conversation_data) };
    }
  }
  if (t.has('agent_tasks')) {
    const tasks = db.prepare('SELECT COUNT(*) FROM agent_tasks').pluck().get() as number;
    if (tasks > 0) out.skipped['agent_task:protobuf'] = tasks;
  }
  out.sessions.push(...sessions.values());
  return out;
}

export function parseWarpDb(path: string): ParseOutput {
  try {
    return withDatabase(path, readDatabase);
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
      throw new StrataError('LOCKED', `Warp database is locked by another process: ${path}`);
    return {
      ...emptyParseOutput(),
      notSession: `cannot read as a Warp database (${code || 'error'}): ${(err as Error).message}`,
    };
  }
}
