// Owns reading Zed's `threads.db` read-only: one session per `threads` row (title from `summary`, the
// project from `folder_paths` or the thread's first worktree, subagents by `parent_id`), its messages
// from the thread JSON. Zed keeps no time per message: each is dated at the thread's creation.
import { StrataError } from '../../shared/errors.js';
import type { ParsedMessage, ParsedSession, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { type Db, withDatabase } from '../sqlite-snapshot.js';
import { contentBlocks, isObject, num, str, threadJson, type Json } from './schema.js';

function isoTime(value: unknown): string | undefined {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

function projectOf(row: Json, thread: Json): string | undefined {
  const folders = str(row.folder_paths)?.split('\n').filter(Boolean);
  if (folders?.[0]) return folders[0];
  const snapshot = isObject(thread.initial_project_snapshot) ? thread.initial_project_snapshot : {};
  const trees = Array.isArray(snapshot.worktree_snapshots) ? snapshot.worktree_snapshots.filter(isObject) : [];
  return str(trees[0]?.worktree_path);
}

function convertThread(row: Json, thread: Json, out: ParseOutput): void {
  const key = String(row.id);
  const skip = (type: string) => {
    out.skipped[type] = (out.skipped[type] ?? 0) + 1;
  };
  const project = projectOf(row, thread);
  const timestamp = isoTime(row.created_at) ?? isoTime(row.updated_at) ?? isoTime(thread.updated_at);
  const usage = isObject(thread.request_token_usage) ? thread.request_token_usage : {};
  const model = isObject(thread.model) ? str(thread.model.model) : undefined;
  const messages: ParsedMessage[] = [];
  let request: string | undefined;
  const list = Array.isArray(thread.messages) ? thread.messages : [];
  list.forEach((entry, i) => {
    const [role, value] = isObject(entry) ? (Object.entries(entry)[0] ?? []) : typeof entry === 'string' ? [entry] : [];
    if ((role !== 'User' && role !== 'Agent') || !isObject(value)) return skip(`message:${role ?? 'unknown'}`);
    const user = role === 'User';
    const blocks = contentBlocks(value.content, isObject(value.tool_results) ? value.tool_results : {}, project, skip);
    if (user) request = str(value.id);
    if (blocks.length === 0) return skip(`message:${role}:empty`);
    const message: ParsedMessage = {
      sessionKey: key,
      key: (user ? str(value.id) : undefined) ?? `m${i}`,
      role: user ? 'user' : 'assistant',
      kind: user ? (blocks.some((b) => b.kind === 'text') ? 'prompt' : 'meta') : 'response',
      line: i + 1,
      blocks,
      ...(timestamp ? { timestamp } : {}),
    };
    if (!user && model) message.model = model;
    const used = !user && request && isObject(usage[request]) ? (usage[request] as Json) : undefined;
    if (used && request) {
      message.usage = {
        apiMessageId: request,
        inputTokens: num(used.input_tokens) ?? 0,
        outputTokens: num(used.output_tokens) ?? 0,
        cacheReadTokens: num(used.cache_read_input_tokens) ?? 0,
        cacheWriteTokens: num(used.cache_creation_input_tokens) ?? 0,
        ...(model ? { model } : {}),
      };
      request = undefined;
    }
    messages.push(message);
  });
  if (messages.length === 0) return skip('thread:empty');
  const session: ParsedSession = { key, agent: 'zed' };
  const title = str(row.summary) ?? str(thread.title);
  if (title?.trim()) session.title = title;
  if (project) session.project = project;
  const parent = str(row.parent_id);
  if (parent) Object.assign(session, { parentKey: parent, relation: 'subagent' });
  const profile = str(thread.profile);
  session.meta = { version: str(thread.version) ?? 'unknown', ...(profile ? { profile } : {}) };
  out.sessions.push(session);
  out.messages.push(...messages);
}

function readDatabase(db: Db): ParseOutput {
  const out = emptyParseOutput();
  const cols = new Set((db.prepare('PRAGMA table_info(threads)').all() as Array<{ name: string }>).map((c) => c.name));
  if (!cols.has('id') || !cols.has('data')) return { ...out, notSession: 'SQLite database without Zed threads' };
  const rows = db.prepare('SELECT * FROM threads ORDER BY rowid').all() as Json[];
  rows.forEach((row, i) => {
    const thread = threadJson(row.data, row.data_type);
    if (!thread) out.malformed.push({ line: i + 1, reason: `thread ${String(row.id)}: data is not readable JSON` });
    else if (!Array.isArray(thread.messages) || thread.messages.some((m) => isObject(m) && 'role' in m))
      // Threads saved before Zed's 0.3 format (messages with `role` and `segments`) are not read yet.
      out.skipped[`thread:version:${str(thread.version) ?? 'unknown'}`] =
        (out.skipped[`thread:version:${str(thread.version) ?? 'unknown'}`] ?? 0) + 1;
    else convertThread(row, thread, out);
  });
  return out;
}

export function parseZedDb(path: string): ParseOutput {
  try {
    return withDatabase(path, readDatabase);
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
      throw new StrataError('LOCKED', `Zed database is locked by another process: ${path}`);
    return {
      ...emptyParseOutput(),
      notSession: `cannot read as a Zed threads database (${code || 'error'}): ${(err as Error).message}`,
    };
  }
}
