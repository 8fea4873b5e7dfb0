// Owns the JSON API of `strata ui`: one read-only handler per endpoint, each a thin call into src/core.
// Query parameters are validated here; a bad one is a 400 with a one-line message.
import type { Database } from 'better-sqlite3';
import { AGENTS, type AgentName } from '../../shared/model.js';
import { StrataError, usageError } from '../../shared/errors.js';
import { parseTimeSpec } from '../../shared/time.js';
import { sqliteReader } from '../../core/retrieval/session-reader.js';
import { parseSelectors } from '../../core/retrieval/selectors.js';
import { sessionListPage, SORT_KEYS, type SortKey } from '../../core/browse/session-list.js';
import { blockText, sessionDetail } from '../../core/browse/session-detail.js';
import { activity } from '../../core/browse/activity.js';
import { fileHistory } from '../../core/file-history/file-history.js';
import { logbookTimeline } from '../../core/browse/logbook-timeline.js';
import { EVENT_TYPES, type EventType } from '../../core/logbook/types.js';
import { resolveSession } from '../../core/retrieval/session-ids.js';
import { requiredId, SESSION_WINDOW_ENDPOINTS, SessionKeeper, windowAnswer } from './session-windows.js';

export interface ApiContext {
  db: Database;
  /** The home folder listings show paths relative to. */
  home: string | null;
  /** The folder `strata ui` was started in: the Logbook page opens on its logbook. */
  cwd?: string;
  /** Reads today's version of a file for the Files page (absent: hunks are not placed). */
  readCurrent?: (path: string) => string | undefined;
}

type Handler = (ctx: ApiContext, params: URLSearchParams) => unknown | Promise<unknown>;

function agents(params: URLSearchParams): AgentName[] | undefined {
  const value = params.get('agent');
  if (!value) return undefined;
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names)
    if (!(AGENTS as readonly string[]).includes(name)) throw usageError(`unknown agent "${name}"`);
  return names as AgentName[];
}

function eventTypes(params: URLSearchParams): EventType[] | undefined {
  const value = params.get('type');
  if (!value) return undefined;
  const names = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const name of names)
    if (!(EVENT_TYPES as readonly string[]).includes(name))
      throw usageError(`unknown event type "${name}" (one of ${EVENT_TYPES.join(', ')})`);
  return names as EventType[];
}

export function int(params: URLSearchParams, name: string, fallback?: number): number | undefined {
  const value = params.get(name);
  if (value === null || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw usageError(`${name} must be a non-negative integer`);
  return n;
}

function time(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  return value ? parseTimeSpec(value) : undefined;
}

/** project, agent, since, until: the session filter every page shares. */
export function sessionFilter(params: URLSearchParams) {
  const project = params.get('project') || undefined;
  const agent = agents(params);
  const since = time(params, 'since');
  const until = time(params, 'until');
  return {
    ...(project ? { project } : {}),
    ...(agent ? { agent } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
  };
}

const keepers = new WeakMap<Database, SessionKeeper>();

/** session-window, messages, find: over the session read last, kept until the store changes. */
function windowHandler(name: string): Handler {
  return (ctx, params) => {
    const typed = requiredId(params);
    const id = resolveSession(ctx.db, typed).id;
    let keeper = keepers.get(ctx.db);
    if (!keeper) keepers.set(ctx.db, (keeper = new SessionKeeper()));
    const key = `${id}\u0000${String(ctx.db.pragma('data_version', { simple: true }))}`;
    return windowAnswer(name, keeper.get(key) ?? keeper.keep(key, sessionDetail(ctx.db, typed)), params);
  };
}

const HANDLERS: Record<string, Handler> = {
  ...Object.fromEntries(SESSION_WINDOW_ENDPOINTS.map((name) => [name, windowHandler(name)])),
  sessions(ctx, params) {
    const sort = params.get('sort') ?? 'startedAt';
    if (!(SORT_KEYS as readonly string[]).includes(sort))
      throw usageError(`sort must be one of ${SORT_KEYS.join(', ')}`);
    const text = params.get('text') || undefined;
    return sessionListPage(
      ctx.db,
      {
        ...sessionFilter(params),
        ...(text ? { text } : {}),
        sort: sort as SortKey,
        descending: params.get('dir') !== 'asc',
        offset: int(params, 'offset', 0)!,
        pageSize: int(params, 'pageSize', 100)!,
      },
      ctx.home,
    );
  },
  session(ctx, params) {
    const id = params.get('id');
    if (!id) throw usageError('id is required');
    return sessionDetail(ctx.db, id);
  },
  /** The rest of a block the session answer cut: `id` (its `cut.id`), from character `offset`. */
  block(ctx, params) {
    const id = int(params, 'id');
    if (id === undefined) throw usageError('id is required');
    return blockText(ctx.db, id, int(params, 'offset', 0)!, int(params, 'length'));
  },
  search(ctx, params) {
    const query = params.get('q')?.trim();
    if (!query) throw usageError('q is required');
    const filter = sessionFilter(params);
    const inSelectors = params.get('in');
    // Through the reader `ui --remote` searches with too (remote-api.ts).
    return sqliteReader(ctx.db, ctx.home).search({
      query,
      regex: params.get('regex') === '1',
      ignoreCase: params.get('ignoreCase') === '1',
      limit: int(params, 'limit', 50)!,
      maxPerSession: int(params, 'perSession', 5)!,
      context: int(params, 'context', 16)!,
      ...(inSelectors ? { in: parseSelectors([inSelectors]) } : {}),
      ...(params.get('session') ? { session: params.get('session')! } : {}),
      ...(filter.project ? { project: filter.project } : {}),
      ...(filter.agent ? { agent: filter.agent } : {}),
      ...(filter.since ? { after: filter.since } : {}),
      ...(filter.until ? { before: filter.until } : {}),
    });
  },
  files(ctx, params) {
    const path = params.get('path')?.trim();
    if (!path) throw usageError('path is required');
    const line = int(params, 'line');
    return fileHistory(ctx.db, {
      path,
      ...(line !== undefined && line > 0 ? { line } : {}),
      limit: int(params, 'limit', 200)!,
      ...(ctx.readCurrent ? { readCurrent: ctx.readCurrent } : {}),
    });
  },
  activity(ctx, params) {
    return activity(ctx.db, sessionFilter(params));
  },
  logbook(ctx, params) {
    return logbookTimeline(ctx.db, {
      workspace: params.get('workspace') || undefined,
      project: params.get('project') || undefined,
      types: eventTypes(params),
      since: time(params, 'since'),
      text: params.get('text') || undefined,
      current: ctx.cwd,
    });
  },
};

export interface ApiResponse {
  status: number;
  body: unknown;
}

/** Answers `/api/<name>?...`; errors become 400 (bad request), 404 (unknown) or 500 with `{ error }`. */
export async function handleApi(ctx: ApiContext, name: string, params: URLSearchParams): Promise<ApiResponse> {
  const handler = Object.hasOwn(HANDLERS, name) ? HANDLERS[name] : undefined;
  if (!handler) return { status: 404, body: { error: `no such endpoint: ${name}` } };
  try {
    return { status: 200, body: await handler(ctx, params) };
  } catch (error) {
    return errorResponse(error);
  }
}

/** 400 (bad request), 404 (unknown id) or 500, with `{ error }`. */
export function errorResponse(error: unknown): ApiResponse {
  if (error instanceof StrataError) {
    const status =
      error.code === 'NOT_FOUND'
        ? 404
        : error.code === 'USAGE' || error.code === 'INVALID_QUERY' || error.code === 'AMBIGUOUS'
          ? 400
          : 500;
    return { status, body: { error: error.message } };
  }
  return { status: 500, body: { error: error instanceof Error ? error.message : String(error) } };
}
