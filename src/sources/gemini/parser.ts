// Owns parsing one Gemini CLI file (FileAdapter: re-parsed whole on change, since rewinds make the JSONL
// non-monotonic). 2025 sessions are one JSON document; 2026 sessions are JSONL: a header line, message
// records, `{"$set": {...}}` metadata updates, `{"$rewindTo": id}` (drops that message and everything after
// it) and repeated ids (a later record replaces the earlier one, keeping its place).
// Decisions: logs.json (a prompt log) and checkpoint-*.json (a `/chat save` snapshot of Content[]) are not
// sessions: the prompts are in chats/ with their replies, and a checkpoint duplicates a chat's content.
import { readJsonSource } from '../../shared/long-json.js';
import { basename } from 'node:path';
import type { ParseOutput, ParsedSession } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import type { ParseContext } from '../types.js';
import { isCheckpoint, isPromptLog, projectDirOf, projectRootOf, subagentParentOf } from './paths.js';
import { convertGeminiRecord } from './records.js';
import type { Json } from './schema.js';
import { classifyGeminiLine, isObject, str } from './schema.js';

export const PROMPT_LOG_REASON = 'Gemini prompt log (logs.json): prompts only, no replies; not a session';
export const CHECKPOINT_REASON = "Gemini checkpoint: a snapshot of a session's content, duplicated in chats/";

function sessionFrom(header: Json, path: string, format: 'json' | 'jsonl'): ParsedSession {
  const key = str(header.sessionId) ?? basename(path).replace(/\.jsonl?$/, '');
  const session: ParsedSession = { key, agent: 'gemini' };
  const meta: Json = { format };
  for (const field of ['projectHash', 'startTime', 'lastUpdated', 'kind']) {
    if (str(header[field])) meta[field] = header[field];
  }
  const dir = projectDirOf(path);
  if (dir && dir !== meta.projectHash) meta.projectDir = dir;
  session.meta = meta;
  const parent = subagentParentOf(path);
  if (parent && parent !== key) Object.assign(session, { parentKey: parent, relation: 'subagent' });
  const title = str(header.summary);
  if (title) session.title = title;
  // Gemini records carry no working directory: a recorded path, else the `.project_root` file beside them.
  const cwd = str(header.cwd) ?? str(header.projectRoot);
  const project = cwd?.startsWith('/') ? cwd : projectRootOf(path);
  if (project) session.project = project;
  return session;
}

function addMessages(
  out: ParseOutput,
  records: Array<{ record: Json; line: number; key: string }>,
  sessionKey: string,
): void {
  for (const { record, line, key } of records) {
    const messages = convertGeminiRecord(record, sessionKey, key, line);
    const first = messages?.[0];
    if (!messages || (messages.length === 1 && first?.blocks.length === 0 && !first.usage)) {
      const t = `type:${str(record.type) ?? 'untyped'}${messages ? ':empty' : ''}`;
      out.skipped[t] = (out.skipped[t] ?? 0) + 1;
    } else out.messages.push(...messages);
  }
}

function jsonErrorOffset(err: unknown): number | undefined {
  const m = /position (\d+)/.exec((err as Error).message);
  return m?.[1] ? Number(m[1]) : undefined;
}

function parseGeminiJson(text: string, path: string): ParseOutput {
  const out = emptyParseOutput();
  let doc: unknown;
  try {
    doc = JSON.parse(text) as unknown;
  } catch (err) {
    const offset = jsonErrorOffset(err);
    out.malformed.push({
      line: 1,
      ...(offset !== undefined ? { offset } : {}),
      reason: 'invalid or truncated JSON document',
    });
    return out;
  }
  if (Array.isArray(doc)) {
    out.notSession = 'Gemini Content[] list (checkpoint-style), not a chat session';
    return out;
  }
  if (!isObject(doc) || !Array.isArray(doc.messages)) {
    out.notSession = 'JSON document without Gemini {sessionId, messages}: not a Gemini session';
    return out;
  }
  const session = sessionFrom(doc, path, 'json');
  out.sessions.push(session);
  const records: Array<{ record: Json; line: number; key: string }> = [];
  doc.messages.forEach((m, i) => {
    if (!isObject(m)) out.malformed.push({ line: i + 1, reason: 'message is not a JSON object' });
    else records.push({ record: m, line: i + 1, key: str(m.id) ?? `index:${i + 1}` });
  });
  addMessages(out, records, session.key);
  return out;
}

function parseGeminiJsonl(text: string, path: string): ParseOutput {
  const out = emptyParseOutput();
  const header: Json = {};
  const order: string[] = [];
  const byKey = new Map<string, { record: Json; line: number; key: string }>();
  const skip = (t: string): void => {
    out.skipped[t] = (out.skipped[t] ?? 0) + 1;
  };
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      out.malformed.push({ line, reason: 'invalid JSON' });
      return;
    }
    const rec = classifyGeminiLine(value);
    switch (rec.kind) {
      case 'malformed':
        out.malformed.push({ line, reason: rec.reason });
        return;
      case 'unknown':
        skip(rec.type);
        return;
      case 'header':
        Object.assign(header, rec.record);
        return;
      case 'set': {
        const { messages, ...values } = rec.values;
        Object.assign(header, values);
        // A `$set` of the whole message list: its messages come first, as the recorder itself loads them.
        if (!Array.isArray(messages)) return;
        const setKeys: string[] = [];
        for (const m of messages) {
          if (!isObject(m)) continue;
          const key = str(m.id) ?? `line:${line}:${setKeys.length}`;
          if (!byKey.has(key)) setKeys.push(key);
          byKey.set(key, { record: m, line, key });
        }
        order.unshift(...setKeys);
        return;
      }
      case 'rewind': {
        const at = order.indexOf(rec.id);
        if (at < 0) return skip('$rewindTo:unknown-id');
        for (const id of order.splice(at)) byKey.delete(id);
        return;
      }
      case 'message': {
        const key = rec.id || `line:${line}`;
        if (!byKey.has(key)) order.push(key);
        byKey.set(key, { record: rec.record, line, key });
        return;
      }
    }
  });
  if (Object.keys(header).length === 0 && order.length === 0) {
    if (out.malformed.length === 0) out.notSession = 'empty Gemini session file';
    return out;
  }
  const session = sessionFrom(header, path, 'jsonl');
  out.sessions.push(session);
  addMessages(
    out,
    order.map((k) => byKey.get(k)!),
    session.key,
  );
  return out;
}

export async function parseGeminiFile(ctx: ParseContext): Promise<ParseOutput> {
  if (isPromptLog(ctx.path)) return { ...emptyParseOutput(), notSession: PROMPT_LOG_REASON };
  if (isCheckpoint(ctx.path)) return { ...emptyParseOutput(), notSession: CHECKPOINT_REASON };
  let text: string;
  try {
    // Without a byte order mark (it would make the first record unreadable); huge strings cut as read.
    text = readJsonSource(ctx.path);
  } catch (err) {
    return { ...emptyParseOutput(), malformed: [{ line: 0, reason: `unreadable: ${(err as Error).message}` }] };
  }
  return ctx.path.endsWith('.jsonl') ? parseGeminiJsonl(text, ctx.path) : parseGeminiJson(text, ctx.path);
}
