// Owns parsing Goose's sessions (FileAdapter): `sessions.db` read read-only (one session per `sessions` row,
// its `messages` rows in insertion order) and the older `<id>.jsonl` files (a metadata line, then one message
// per line), both holding the same serialized messages. A user message with text is a prompt (one Goose
// shows only to the model is context); one holding only tool responses is tool output.
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { StrataError } from '../../shared/errors.js';
import type { ParsedMessage, ParsedSession, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { type Db, withDatabase } from '../sqlite-snapshot.js';
import type { ParseContext } from '../types.js';
import { DB_NAME, isGooseDbName } from './paths.js';
import { gooseTime, isObject, type Json, num, partBlock, str } from './schema.js';

/** The name Goose's CLI gives every new session until one is generated or set. */
const DEFAULT_NAME = /^CLI Session$/i;

function count(out: ParseOutput, type: string): void {
  out.skipped[type] = (out.skipped[type] ?? 0) + 1;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

interface RawMessage {
  role: unknown;
  content: unknown;
  created: unknown;
  metadata: unknown;
}

function convert(
  raw: RawMessage,
  key: string,
  line: number,
  session: ParsedSession,
  toolNames: Map<string, string>,
  out: ParseOutput,
): ParsedMessage | undefined {
  const role = str(raw.role);
  if (role !== 'user' && role !== 'assistant') {
    count(out, `message:${role ?? 'missing'}`);
    return undefined;
  }
  const m: ParsedMessage = { sessionKey: session.key, key, role, kind: 'prompt', line, blocks: [] };
  for (const part of Array.isArray(raw.content) ? raw.content : []) {
    const { block, skipped } = partBlock(part, toolNames);
    if (block) m.blocks.push(block);
    else if (skipped) count(out, skipped);
  }
  if (m.blocks.length === 0) {
    count(out, `message:${role}:empty`);
    return undefined;
  }
  const hidden = isObject(raw.metadata) && raw.metadata.userVisible === false;
  if (role === 'assistant') m.kind = 'response';
  else if (!m.blocks.some((b) => b.kind === 'text')) Object.assign(m, { role: 'tool', kind: 'tool_output' });
  else if (hidden) m.kind = 'meta';
  const timestamp = gooseTime(raw.created);
  if (timestamp) m.timestamp = timestamp;
  return m;
}

function titleOf(name: unknown): string | undefined {
  const title = str(name)?.trim();
  return title && !DEFAULT_NAME.test(title) ? title : undefined;
}

function columns(db: Db, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

function readDatabase(db: Db): ParseOutput {
  const out = emptyParseOutput();
  const sessionCols = columns(db, 'sessions');
  const messageCols = columns(db, 'messages');
  if (!sessionCols.has('working_dir') || !messageCols.has('content_json')) {
    return { ...out, notSession: 'SQLite database without the Goose tables (sessions, messages)' };
  }
  db.transaction(() => {
    const rows = db.prepare('SELECT * FROM sessions ORDER BY created_at, id').all() as Json[];
    const messages = db.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY id');
    for (const s of rows) {
      const id = str(s.id);
      if (!id) continue;
      if (s.session_type === 'hidden') {
        count(out, 'session:hidden');
        continue;
      }
      const session: ParsedSession = { key: id, agent: 'goose' };
      const title = titleOf(str(s.name) || s.description);
      if (title) session.title = title;
      const project = str(s.working_dir);
      if (project) session.project = project;
      const meta: Record<string, unknown> = {};
      if (str(s.session_type) && s.session_type !== 'user') meta.sessionType = s.session_type;
      for (const k of ['accumulated_input_tokens', 'accumulated_output_tokens'] as const)
        if (num(s[k]) !== undefined) meta[k] = s[k];
      if (Object.keys(meta).length > 0) session.meta = meta;
      const toolNames = new Map<string, string>();
      const converted = (messages.all(id) as Json[])
        .map((row, i) => {
          const content = parseJson(row.content_json);
          if (!Array.isArray(content)) {
            out.malformed.push({
              line: i + 1,
              reason: `session ${id} message ${String(row.id)}: content is not a JSON array`,
            });
            return undefined;
          }
          const raw = {
            role: row.role,
            content,
            created: row.created_timestamp,
            metadata: parseJson(row.metadata_json),
          };
          return convert(raw, str(row.message_id) ?? `i:${i}`, i + 1, session, toolNames, out);
        })
        .filter((m): m is ParsedMessage => m !== undefined);
      if (converted.length === 0) {
        count(out, 'session:empty');
        continue;
      }
      out.sessions.push(session);
      out.messages.push(...converted);
    }
  })();
  return out;
}

function parseDb(path: string): ParseOutput {
  try {
    return withDatabase(path, readDatabase);
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
      throw new StrataError('LOCKED', `Goose database is locked by another process: ${path}`);
    return {
      ...emptyParseOutput(),
      notSession: `cannot read as a Goose database (${code || 'error'}): ${(err as Error).message}`,
    };
  }
}

/** True when the `sessions.db` beside a legacy file already holds its session (Goose imported it). */
function importedIntoDb(path: string, id: string): boolean {
  const db = join(dirname(path), DB_NAME);
  if (!existsSync(db)) return false;
  try {
    return withDatabase(db, (h) => h.prepare('SELECT 1 FROM sessions WHERE id = ?').get(id) !== undefined);
  } catch {
    return false;
  }
}

async function parseJsonl(path: string): Promise<ParseOutput> {
  const out = emptyParseOutput();
  const session: ParsedSession = { key: basename(path, '.jsonl'), agent: 'goose' };
  if (importedIntoDb(path, session.key))
    return { ...out, notSession: `Goose session imported into ${DB_NAME} beside it: read from there` };
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return { ...out, malformed: [{ line: 0, reason: `unreadable: ${(err as Error).message}` }] };
  }
  const toolNames = new Map<string, string>();
  text.split('\n').forEach((rawLine, i) => {
    if (!rawLine.trim()) return;
    const value = parseJson(rawLine.replace(/^\uFEFF/, ''));
    if (!isObject(value)) {
      out.malformed.push({ line: i + 1, reason: 'invalid JSON or not an object' });
      return;
    }
    if (value.role === undefined && ('working_dir' in value || 'description' in value)) {
      const project = str(value.working_dir);
      if (project) session.project = project;
      const title = titleOf(value.description);
      if (title) session.title = title;
      return;
    }
    if (value.role === undefined) {
      out.malformed.push({ line: i + 1, reason: 'not a Goose message (no role)' });
      return;
    }
    const key = str(value.id) ?? `l:${i + 1}`;
    const m = convert(value as unknown as RawMessage, key, i + 1, session, toolNames, out);
    if (m) out.messages.push(m);
  });
  out.sessions.push(session);
  return out;
}

export async function parseGooseFile(ctx: ParseContext): Promise<ParseOutput> {
  return isGooseDbName(ctx.path) ? parseDb(ctx.path) : parseJsonl(ctx.path);
}
