// Owns reading Cursor's `state.vscdb` read-only: one session per composer (`composerData:<id>`, title from
// its `name`), its bubbles (`bubbleId:<composer>:<bubble>`, or inline `conversation` before them) in the
// order of `fullConversationHeadersOnly`; subagent composers linked to their parent (a workspace's own
// database: workspace.ts). Only composers whose
// stamp changed are re-read (partial output): Cursor rewrites a row by replacing it, which gives it a new
// rowid, so the composer's and its bubbles' largest rowids and counts tell a change from the key index.
import { StrataError } from '../../shared/errors.js';
import type { ParsedMessage, ParsedSession, ParseOutput } from '../../shared/model.js';
import { emptyParseOutput } from '../../shared/model.js';
import { type Db, withDatabase } from '../sqlite-snapshot.js';
import { dirname } from 'node:path';
import { isWorkspaceDb, workspaceDirs, workspaceFolder } from './paths.js';
import { readWorkspaceDb } from './workspace.js';
import { bubbleBlocks, bubbleTime, isObject, isoTime, jsonObject, num, str, type Json } from './schema.js';

const STATE_VERSION = 1;
const COMPOSER = 'composerData:';
const BUBBLE = 'bubbleId:';

interface CursorState {
  version: number;
  /** composer id → change stamp. */
  composers: Record<string, string>;
}

interface ComposerRow {
  id: string;
  stamp: string;
  children: string[];
}

/** Keys in [prefix, prefix + '\uffff'): a range the key index answers, unlike LIKE. */
const range = (prefix: string) => [prefix, `${prefix}\uffff`] as const;

function tables(db: Db): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

function composerRows(db: Db): ComposerRow[] {
  const bubbles = new Map<string, { n: number; max: number }>();
  const keys = db
    .prepare('SELECT key, rowid AS r FROM cursorDiskKV WHERE key >= ? AND key < ?')
    .all(...range(BUBBLE)) as Array<{ key: string; r: number }>;
  for (const { key, r } of keys) {
    const id = key.slice(BUBBLE.length, key.indexOf(':', BUBBLE.length));
    const seen = bubbles.get(id) ?? { n: 0, max: 0 };
    bubbles.set(id, { n: seen.n + 1, max: Math.max(seen.max, r) });
  }
  const rows = db
    .prepare(
      `SELECT key, rowid AS r, length(value) AS size,
              CASE WHEN json_valid(value) THEN json_extract(value, '$.subagentComposerIds') END AS children
         FROM cursorDiskKV WHERE key >= ? AND key < ? ORDER BY rowid`,
    )
    .all(...range(COMPOSER)) as Array<{ key: string; r: number; size: number | null; children: unknown }>;
  return rows.map((r) => {
    const id = r.key.slice(COMPOSER.length);
    const children = JSON.parse(typeof r.children === 'string' ? r.children : '[]') as unknown;
    const b = bubbles.get(id);
    return {
      id,
      stamp: `${r.r}:${r.size ?? 0}:${b?.n ?? 0}:${b?.max ?? 0}`,
      children: Array.isArray(children) ? children.filter((c): c is string => typeof c === 'string') : [],
    };
  });
}

/** composer id → folder, from each workspace's `composer.composerData` (Cursor before `workspaceIdentifier`). */
function workspaceComposers(globalDb: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const dir of workspaceDirs(globalDb)) {
    const folder = workspaceFolder(dir);
    if (!folder) continue;
    try {
      withDatabase(`${dir}/state.vscdb`, (db) => {
        if (!tables(db).has('ItemTable')) return;
        const raw = db.prepare("SELECT value FROM ItemTable WHERE key = 'composer.composerData'").pluck().get();
        const all = jsonObject(typeof raw === 'string' ? raw : raw?.toString())?.allComposers;
        for (const c of Array.isArray(all) ? all.filter(isObject) : []) {
          const id = str(c.composerId);
          if (id) map.set(id, folder);
        }
      });
    } catch {
      // An unreadable workspace database only leaves its composers without a project.
    }
  }
  return map;
}

function projectOf(composer: Json, workspaces: () => Map<string, string>, id: string): string | undefined {
  const ws = isObject(composer.workspaceIdentifier) ? composer.workspaceIdentifier : undefined;
  const uri = isObject(ws?.uri) ? ws.uri : undefined;
  const fromUri = str(uri?.fsPath) ?? str(uri?.path);
  if (fromUri) return fromUri;
  return workspaces().get(id);
}

function bubbleList(db: Db, id: string, composer: Json, out: ParseOutput): Array<Json | undefined> {
  if (Array.isArray(composer.conversation)) return composer.conversation.filter(isObject);
  const rows = db
    .prepare('SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ?')
    .all(...range(`${BUBBLE}${id}:`)) as Array<{ key: string; value: unknown }>;
  const byId = new Map(rows.map((r) => [r.key.slice(BUBBLE.length + id.length + 1), r.value]));
  const headers = Array.isArray(composer.fullConversationHeadersOnly)
    ? composer.fullConversationHeadersOnly.filter(isObject)
    : undefined;
  const ids = headers ? headers.map((h) => str(h.bubbleId) ?? '') : [...byId.keys()];
  // A bubble is numbered by its place in the conversation (its "line"); an unreadable one leaves a gap.
  const list: Array<Json | undefined> = [];
  ids.forEach((bubbleId, i) => {
    const raw = byId.get(bubbleId);
    const bubble = jsonObject(typeof raw === 'string' ? raw : raw?.toString());
    if (raw === undefined || raw === null) out.skipped['bubble:missing'] = (out.skipped['bubble:missing'] ?? 0) + 1;
    else if (!bubble) out.malformed.push({ line: i + 1, reason: `bubble ${bubbleId}: not a JSON object` });
    list.push(bubble);
  });
  if (headers) return list;
  return list
    .filter((b): b is Json => b !== undefined)
    .sort((a, b) => (bubbleTime(a) ?? '').localeCompare(bubbleTime(b) ?? ''));
}

function convertComposer(db: Db, id: string, composer: Json, project: string | undefined, out: ParseOutput): void {
  const skip = (type: string) => {
    out.skipped[type] = (out.skipped[type] ?? 0) + 1;
  };
  const bubbles = bubbleList(db, id, composer, out);
  const messages: ParsedMessage[] = [];
  let time = isoTime(composer.createdAt);
  let model = str(isObject(composer.modelConfig) ? composer.modelConfig.modelName : undefined);
  bubbles.forEach((bubble, i) => {
    if (!bubble) return;
    if (bubble.type !== 1 && bubble.type !== 2) return skip(`bubble:type:${String(bubble.type)}`);
    time = bubbleTime(bubble) ?? time;
    const user = bubble.type === 1;
    if (user) model = str(isObject(bubble.modelInfo) ? bubble.modelInfo.modelName : undefined) ?? model;
    const blocks = bubbleBlocks(bubble, project);
    if (blocks.length === 0) return skip(`bubble:${user ? 'user' : 'assistant'}:empty`);
    const key = str(bubble.bubbleId) ?? `i:${i}`;
    const message: ParsedMessage = {
      sessionKey: id,
      key,
      role: user ? 'user' : 'assistant',
      kind: user ? 'prompt' : 'response',
      line: i + 1,
      blocks,
      ...(time ? { timestamp: time } : {}),
    };
    if (!user && model && model !== 'default') message.model = model;
    const tokens = isObject(bubble.tokenCount) ? bubble.tokenCount : {};
    const [input, output] = [num(tokens.inputTokens) ?? 0, num(tokens.outputTokens) ?? 0];
    if (!user && input + output > 0) {
      message.usage = {
        apiMessageId: key,
        inputTokens: input,
        outputTokens: output,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      };
      if (message.model) message.usage.model = message.model;
    }
    messages.push(message);
  });
  if (messages.length === 0) return skip('composer:empty');
  const session: ParsedSession = { key: id, agent: 'cursor' };
  const title = str(composer.name);
  if (title?.trim()) session.title = title;
  if (project) session.project = project;
  const mode = str(composer.unifiedMode) ?? str(composer.forceMode);
  if (mode) session.meta = { mode };
  out.sessions.push(session);
  out.messages.push(...messages);
}

function readDatabase(db: Db, path: string, previousState: unknown): ParseOutput {
  const out = emptyParseOutput();
  if (!tables(db).has('cursorDiskKV')) {
    return { ...out, notSession: 'SQLite database without the cursorDiskKV table (VS Code, not Cursor)' };
  }
  db.transaction(() => {
    const rows = composerRows(db);
    const parents = new Map(rows.flatMap((r) => r.children.map((c) => [c, r.id] as const)));
    const previous = previousState as CursorState | undefined;
    const valid = isObject(previous) && previous.version === STATE_VERSION && isObject(previous.composers);
    const partial = valid && Object.keys(previous.composers).every((id) => rows.some((r) => r.id === id));
    let workspaces: Map<string, string> | undefined;
    const lazyWorkspaces = () => (workspaces ??= workspaceComposers(path));
    const get = db.prepare('SELECT value FROM cursorDiskKV WHERE key = ?').pluck();
    for (const row of rows) {
      if (partial && previous.composers[row.id] === row.stamp) continue;
      const raw = get.get(`${COMPOSER}${row.id}`);
      if (raw === null || raw === undefined) continue;
      const composer = jsonObject(typeof raw === 'string' ? raw : String(raw));
      if (!composer) {
        out.malformed.push({ line: 1, reason: `${COMPOSER}${row.id}: not a JSON object` });
        continue;
      }
      const before = out.sessions.length;
      convertComposer(db, row.id, composer, projectOf(composer, lazyWorkspaces, row.id), out);
      const parent = parents.get(row.id);
      const session = out.sessions[before];
      if (session && parent) Object.assign(session, { parentKey: parent, relation: 'subagent' });
    }
    out.partial = partial;
    out.state = { version: STATE_VERSION, composers: Object.fromEntries(rows.map((r) => [r.id, r.stamp])) };
  })();
  return out;
}

function readWorkspace(db: Db, path: string): ParseOutput {
  const project = workspaceFolder(dirname(path));
  return readWorkspaceDb(db, project, (id, composer, out) => convertComposer(db, id, composer, project, out));
}

export function parseCursorDb(path: string, previousState?: unknown): ParseOutput {
  try {
    return withDatabase(path, (db) =>
      isWorkspaceDb(path) ? readWorkspace(db, path) : readDatabase(db, path, previousState),
    );
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
      throw new StrataError('LOCKED', `Cursor database is locked by another process: ${path}`);
    return {
      ...emptyParseOutput(),
      notSession: `cannot read as a Cursor database (${code || 'error'}): ${(err as Error).message}`,
    };
  }
}
