// Owns reading OpenCode's `opencode.db` strictly read-only (readonly handle + PRAGMA query_only, a
// 2 s busy timeout, one read transaction for a consistent snapshot; WAL readers never block the
// writer), the cheap change fingerprint, and per-session change stamps (MAX(time_updated) + counts)
// so only changed sessions are re-parsed.
import { StrataError } from '../../shared/errors.js';
import { emptyParseOutput, type ParseOutput } from '../../shared/model.js';
import { convertSession, type RawMessage, type RawSession } from './convert.js';
import { type Db, fileFingerprint, needsCopy, withDatabase } from '../sqlite-snapshot.js';
import { isRecord } from './schema.js';

const STATE_VERSION = 1;

interface OpenCodeDbState {
  version: number;
  /** session id → change stamp (`<max time_updated>:<messages>:<parts>`). */
  sessions: Record<string, string>;
}

function tables(db: Db): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

/** Columns of a table: older OpenCode schemas name the time columns differently or lack them. */
function columnsOf(db: Db, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

/** The column that best tells when a row changed, or the constant 0 when the table has none. */
function changeColumn(db: Db, table: string): string {
  const cols = columnsOf(db, table);
  return ['time_updated', 'updated_at', 'time_created', 'created_at'].find((c) => cols.has(c)) ?? '0';
}

/** The column that tells when a row was created, or NULL. */
function createdColumn(db: Db, table: string): string {
  const cols = columnsOf(db, table);
  return ['time_created', 'created_at'].find((c) => cols.has(c)) ?? 'NULL';
}

function validState(value: unknown): OpenCodeDbState | undefined {
  return isRecord(value) && value.version === STATE_VERSION && isRecord(value.sessions)
    ? (value as unknown as OpenCodeDbState)
    : undefined;
}

/** Cheap whole-database change check: counts and max time_updated of the three tables. */
export function opencodeDbFingerprint(path: string): string | undefined {
  try {
    return needsCopy(path) ? fileFingerprint(path) : withDatabase(path, tableFingerprint);
  } catch {
    return undefined;
  }
}

function tableFingerprint(db: Db): string | undefined {
  const t = tables(db);
  if (!t.has('session') || !t.has('message') || !t.has('part')) return undefined;
  const [sc, mc, pc] = [changeColumn(db, 'session'), changeColumn(db, 'message'), changeColumn(db, 'part')];
  const row = db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM session) AS s, (SELECT MAX(${sc}) FROM session) AS su,
              (SELECT COUNT(*) FROM message) AS m, (SELECT MAX(${mc}) FROM message) AS mu,
              (SELECT COUNT(*) FROM part) AS p, (SELECT MAX(${pc}) FROM part) AS pu`,
    )
    .get() as Record<string, number | null>;
  return `v${STATE_VERSION}:${row.s}:${row.su}:${row.m}:${row.mu}:${row.p}:${row.pu}`;
}

function sessionStamps(db: Db): Map<string, string> {
  const [sc, mc, pc] = [changeColumn(db, 'session'), changeColumn(db, 'message'), changeColumn(db, 'part')];
  const sessionCreated = createdColumn(db, 'session');
  const rows = db
    .prepare(
      `SELECT s.id AS id,
              MAX(COALESCE(${sc === '0' ? '0' : `s.${sc}`}, 0), COALESCE(m.mx, 0), COALESCE(p.mx, 0)) AS stamp,
              COALESCE(m.n, 0) AS messages, COALESCE(p.n, 0) AS parts
         FROM session s
         LEFT JOIN (SELECT session_id, MAX(${mc}) AS mx, COUNT(*) AS n FROM message GROUP BY session_id) m
           ON m.session_id = s.id
         LEFT JOIN (SELECT session_id, MAX(${pc}) AS mx, COUNT(*) AS n FROM part GROUP BY session_id) p
           ON p.session_id = s.id
        ORDER BY s.${sessionCreated === 'NULL' ? 'rowid' : sessionCreated}, s.id`,
    )
    .all() as Array<{ id: string; stamp: number; messages: number; parts: number }>;
  return new Map(rows.map((r) => [r.id, `${r.stamp}:${r.messages}:${r.parts}`]));
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function readSession(
  db: Db,
  id: string,
  hasProject: boolean,
): { session: RawSession; messages: RawMessage[] } | undefined {
  // SELECT * so columns added or removed by newer OpenCode versions never break the query.
  const row = db.prepare('SELECT * FROM session WHERE id = ?').get(id) as Record<string, unknown> | undefined;
  if (!row) return undefined;
  const session: RawSession = { id };
  const set = <K extends keyof RawSession>(key: K, value: RawSession[K] | undefined) => {
    if (value !== undefined) session[key] = value;
  };
  set('directory', text(row.directory));
  set('title', text(row.title));
  set('parentId', text(row.parent_id));
  set('projectId', text(row.project_id));
  set('version', text(row.version));
  set('timeCreated', typeof row.time_created === 'number' ? row.time_created : undefined);
  set('timeUpdated', typeof row.time_updated === 'number' ? row.time_updated : undefined);
  if (hasProject && session.projectId) {
    const project = db.prepare('SELECT * FROM project WHERE id = ?').get(session.projectId) as
      | Record<string, unknown>
      | undefined;
    set('worktree', text(project?.worktree));
  }
  const created = createdColumn(db, 'message');
  const messages = db
    .prepare(
      `SELECT id, ${created} AS time_created, data FROM message WHERE session_id = ?
        ORDER BY ${created === 'NULL' ? 'rowid' : created}, id`,
    )
    .all(id) as Array<{ id: string; time_created: number; data: unknown }>;
  const byMessage = new Map<string, RawMessage>();
  const list = messages.map((m) => {
    const raw: RawMessage = { id: m.id, timeCreated: m.time_created, data: m.data, parts: [] };
    byMessage.set(m.id, raw);
    return raw;
  });
  const parts = db
    .prepare('SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id')
    .all(id) as Array<{ id: string; message_id: string; data: unknown }>;
  for (const p of parts) byMessage.get(p.message_id)?.parts.push({ id: p.id, data: p.data });
  return { session, messages: list };
}

/** Parses the database; with a valid previous state only sessions whose stamp changed (partial output). */
export function parseOpenCodeDb(path: string, previousState?: unknown): ParseOutput {
  try {
    return withDatabase(path, (db) => readDatabase(db, previousState));
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    // Busy past the timeout: fail this run (the engine keeps the stored sessions and retries later).
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      throw new StrataError('LOCKED', `OpenCode database is locked by another process: ${path}`);
    }
    // Corrupt or not a database: reported without touching what the store already holds.
    return {
      ...emptyParseOutput(),
      notSession: `cannot read as an OpenCode database (${code || 'error'}): ${(err as Error).message}`,
    };
  }
}

function readDatabase(db: Db, previousState: unknown): ParseOutput {
  const out = emptyParseOutput();
  const t = tables(db);
  if (!t.has('session') || !t.has('message') || !t.has('part')) {
    return { ...out, notSession: 'SQLite database without the OpenCode tables (session, message, part)' };
  }
  db.transaction(() => {
    const stamps = sessionStamps(db);
    const previous = validState(previousState);
    const removed = previous ? Object.keys(previous.sessions).some((id) => !stamps.has(id)) : true;
    const partial = previous !== undefined && !removed;
    for (const [id, stamp] of stamps) {
      if (partial && previous.sessions[id] === stamp) continue;
      const read = readSession(db, id, t.has('project'));
      if (read) convertSession(read.session, read.messages, out);
    }
    out.partial = partial;
    out.state = { version: STATE_VERSION, sessions: Object.fromEntries(stamps) } satisfies OpenCodeDbState;
  })();
  return out;
}
