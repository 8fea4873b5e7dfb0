// Owns reading a Crush `crush.db` read-only: one session per `sessions` row (its `title` unless it is the
// default; subagent sessions linked by `parent_session_id`), its `messages` in time order: user text as
// prompts, assistant parts as replies, `tool` messages as tool output, the summary message as compaction.
import { StrataError } from '../../shared/errors.js';
import type { ParsedMessage, ParsedSession, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { type Db, withDatabase } from '../sqlite-snapshot.js';
import { projectOfDb } from './paths.js';
import { crushTime, crushTitle, partBlock, str, type Json } from './schema.js';

function columns(db: Db, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

function parts(text: unknown): unknown[] | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function convertMessage(row: Json, line: number, session: Json, out: ParseOutput): ParsedMessage | undefined {
  const list = parts(row.parts);
  const key = str(row.id) ?? `line:${line}`;
  if (!list) {
    out.malformed.push({ line, reason: `message ${key}: parts are not a JSON array` });
    return undefined;
  }
  const blocks = [];
  for (const part of list) {
    const { block, skipped } = partBlock(part);
    if (block) blocks.push(block);
    else if (skipped && skipped !== 'part:finish') out.skipped[skipped] = (out.skipped[skipped] ?? 0) + 1;
  }
  const role = str(row.role);
  if (role !== 'user' && role !== 'tool' && role !== 'assistant') {
    out.skipped[`message:${role ?? 'unknown'}`] = (out.skipped[`message:${role ?? 'unknown'}`] ?? 0) + 1;
    return undefined;
  }
  if (blocks.length === 0) {
    out.skipped[`message:${role}:empty`] = (out.skipped[`message:${role}:empty`] ?? 0) + 1;
    return undefined;
  }
  const summary = row.is_summary_message === 1 || (key !== '' && key === str(session.summary_message_id));
  const base = { sessionKey: String(session.id), key, line, blocks };
  const timestamp = crushTime(row.created_at);
  const message: ParsedMessage =
    role === 'user'
      ? { ...base, role: 'user', kind: blocks.some((b) => b.kind === 'text') ? 'prompt' : 'meta' }
      : role === 'tool'
        ? { ...base, role: 'tool', kind: 'tool_output' }
        : { ...base, role: 'assistant', kind: summary ? 'compaction' : 'response' };
  if (timestamp) message.timestamp = timestamp;
  const model = str(row.model);
  if (model && role === 'assistant') message.model = model;
  return message;
}

function readDatabase(db: Db, path: string): ParseOutput {
  const out = emptyParseOutput();
  const sessionCols = columns(db, 'sessions');
  const messageCols = columns(db, 'messages');
  if (!sessionCols.has('id') || !messageCols.has('parts')) {
    return { ...out, notSession: 'SQLite database without the Crush tables (sessions, messages)' };
  }
  const project = projectOfDb(path);
  db.transaction(() => {
    const sessions = db.prepare('SELECT * FROM sessions ORDER BY created_at, id').all() as Json[];
    const order = messageCols.has('created_at') ? 'created_at, rowid' : 'rowid';
    const messages = db.prepare(`SELECT * FROM messages WHERE session_id = ? ORDER BY ${order}`);
    for (const s of sessions) {
      const id = str(s.id);
      if (!id) continue;
      const rows = messages.all(id) as Json[];
      const converted = rows
        .map((row, i) => convertMessage(row, i + 1, s, out))
        .filter((m): m is ParsedMessage => m !== undefined);
      if (converted.length === 0) {
        out.skipped['session:empty'] = (out.skipped['session:empty'] ?? 0) + 1;
        continue;
      }
      const session: ParsedSession = { key: id, agent: 'crush' };
      const title = crushTitle(s.title);
      if (title) session.title = title;
      if (project) session.project = project;
      const parent = str(s.parent_session_id);
      if (parent) Object.assign(session, { parentKey: parent, relation: 'subagent' });
      if (typeof s.cost === 'number' && s.cost > 0) session.meta = { cost: s.cost };
      out.sessions.push(session);
      out.messages.push(...converted);
    }
  })();
  return out;
}

export function parseCrushDb(path: string): ParseOutput {
  try {
    return withDatabase(path, (db) => readDatabase(db, path));
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
      throw new StrataError('LOCKED', `Crush database is locked by another process: ${path}`);
    return {
      ...emptyParseOutput(),
      notSession: `cannot read as a Crush database (${code || 'error'}): ${(err as Error).message}`,
    };
  }
}
