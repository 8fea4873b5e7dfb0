// Owns the JSON API of `strata ui --remote NAME`: the pages that need search, the session list and one
// session, answered from a team store through the SessionReader; files, activity and logbooks are local
// only and answer 501 saying so (`/api/remote` names the store and the local-only endpoints).
import type { SessionReader } from '../../core/retrieval/session-reader.js';
import type { SessionDetail } from '../../core/browse/session-detail.js';
import type { SessionListPage } from '../../core/browse/session-list.js';
import type { ListingEntry } from '../../core/retrieval/session-listing.js';
import { usageError } from '../../shared/errors.js';
import { type ApiResponse, errorResponse, int, sessionFilter } from './api.js';
import { requiredId, SESSION_WINDOW_ENDPOINTS, SessionKeeper, windowAnswer } from './session-windows.js';

/** A remote session copied for the paged endpoints is read again after this long. */
const REMOTE_KEEP_MS = 30_000;

export const LOCAL_ONLY_ENDPOINTS = ['files', 'activity', 'logbook'];

export type RemoteApi = (name: string, params: URLSearchParams) => Promise<ApiResponse>;

/** `detail`: one session as the local detail page reads it (the session copied from the server). */
export function remoteApi(reader: SessionReader, detail: (id: string) => Promise<SessionDetail>): RemoteApi {
  const keeper = new SessionKeeper(REMOTE_KEEP_MS);
  const paged = (name: string) => async (params: URLSearchParams) => {
    const id = requiredId(params);
    return windowAnswer(name, keeper.get(id) ?? keeper.keep(id, await detail(id)), params);
  };
  const handlers: Record<string, (params: URLSearchParams) => Promise<unknown>> = {
    ...Object.fromEntries(SESSION_WINDOW_ENDPOINTS.map((name) => [name, paged(name)])),
    async remote() {
      return { remote: reader.name, localOnly: LOCAL_ONLY_ENDPOINTS };
    },
    async sessions(params) {
      const text = params.get('text')?.toLowerCase();
      const all = await reader.list(sessionFilter(params));
      const matching = all.filter(
        (e) => !text || [e.title, e.project, e.id].some((v) => v?.toLowerCase().includes(text)),
      );
      const offset = int(params, 'offset', 0)!;
      const pageSize = Math.min(1000, int(params, 'pageSize', 100)!);
      return listPage(matching, offset, pageSize);
    },
    async session(params) {
      const id = params.get('id');
      if (!id) throw usageError('id is required');
      return detail(id);
    },
    async search(params) {
      const query = params.get('q')?.trim();
      if (!query) throw usageError('q is required');
      const filter = sessionFilter(params);
      return reader.search({
        query,
        limit: int(params, 'limit', 50)!,
        maxPerSession: int(params, 'perSession', 5)!,
        context: int(params, 'context', 16)!,
        ...(filter.project ? { project: filter.project } : {}),
        ...(filter.agent ? { agent: filter.agent } : {}),
      });
    },
  };
  return async (name, params) => {
    if (LOCAL_ONLY_ENDPOINTS.includes(name)) {
      const error = `${name} is local only: run \`strata ui\` without --remote for it`;
      return { status: 501, body: { error, localOnly: true } };
    }
    const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
    if (!handler) return { status: 404, body: { error: `no such endpoint: ${name}` } };
    try {
      return { status: 200, body: await handler(params) };
    } catch (error) {
      return errorResponse(error);
    }
  };
}

function listPage(entries: ListingEntry[], offset: number, pageSize: number): SessionListPage {
  const sum = (key: 'messages' | 'userMessages' | 'bashCalls' | 'linesAdded' | 'linesRemoved' | 'commits') =>
    entries.reduce((n, e) => n + (e[key] ?? 0), 0);
  const byAgent: Record<string, number> = {};
  for (const e of entries) byAgent[e.agent] = (byAgent[e.agent] ?? 0) + 1;
  return {
    offset,
    pageSize,
    matching: entries.length,
    totals: {
      sessions: entries.length,
      messages: sum('messages'),
      userMessages: sum('userMessages'),
      bashCalls: sum('bashCalls'),
      linesAdded: sum('linesAdded'),
      linesRemoved: sum('linesRemoved'),
      commits: sum('commits'),
      byAgent,
    },
    rows: entries.slice(offset, offset + pageSize).map((e) => ({ ...e, children: [] })),
    projects: [...new Set(entries.map((e) => e.project).filter((p): p is string => Boolean(p)))].sort(),
    agents: Object.keys(byAgent).sort(),
  };
}
