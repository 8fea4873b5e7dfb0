// Owns `strata index --remote`: the team store's sessions, newest first, with the listing entry each
// machine pushed, filtered as locally, and the machine and user that pushed them.
import type { PgClient } from '../../store/team/pg-client.js';
import type { ListingEntry } from '../retrieval/session-listing.js';
import { shortTime } from '../retrieval/format-listing.js';
import { shortestUniquePrefixes } from '../retrieval/session-ids.js';
import { projectMatches } from '../../shared/project-match.js';
import { lastSegment } from './remotes.js';

export interface RemoteListingFilter {
  project?: string;
  agent?: string[];
  machine?: string;
  user?: string;
  since?: string;
  until?: string;
  limit?: number;
  all?: boolean;
}

export type RemoteEntry = ListingEntry & { machine: string; user: string };

export async function listRemoteSessions(client: PgClient, filter: RemoteListingFilter): Promise<RemoteEntry[]> {
  const params: unknown[] = [];
  const add = (v: unknown) => `$${params.push(v)}`;
  const where: string[] = [];
  // A subagent is rolled into its parent when the parent is stored too (as locally: parent_id set).
  if (!filter.all) {
    where.push(`NOT EXISTS (SELECT 1 FROM strata.sessions p WHERE p.machine = s.machine AND p.agent = s.agent
      AND p.external_id = s.parent_external_id)`);
  }
  if (filter.agent?.length) where.push(`agent = ANY(${add(filter.agent)})`);
  if (filter.machine) where.push(`machine = ${add(filter.machine)}`);
  if (filter.user) where.push(`os_user = ${add(filter.user)}`);
  if (filter.project) where.push(`project ILIKE ${add(`%${lastSegment(filter.project)}%`)}`);
  if (filter.since) where.push(`COALESCE(ended_at, started_at) >= ${add(filter.since)}`);
  if (filter.until) where.push(`started_at < ${add(filter.until)}`);
  const rows = await client.query<{
    machine: string;
    os_user: string;
    agent: string;
    external_id: string;
    project: string | null;
    title: string | null;
    started_at: string | null;
    ended_at: string | null;
    messages: number;
    user_messages: number;
    listing: Partial<ListingEntry> | null;
  }>(
    `SELECT machine, os_user, agent, external_id, project, title, started_at, ended_at, messages, user_messages,
       listing FROM strata.sessions s ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY started_at DESC NULLS LAST, external_id`,
    params,
  );
  const kept = rows.rows.filter((r) => !filter.project || projectMatches(r.project ?? '', filter.project));
  const ids = await client.query<{ external_id: string }>('SELECT external_id FROM strata.sessions');
  const short = shortestUniquePrefixes(ids.rows.map((r) => r.external_id));
  return kept.slice(0, filter.limit ?? kept.length).map((r) => ({
    ...(r.listing ?? {}),
    id: r.external_id,
    shortId: short.get(r.external_id) ?? r.external_id,
    agent: r.agent,
    project: r.project,
    title: r.listing?.title ?? r.title,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    messages: r.listing?.messages ?? r.messages,
    userMessages: r.listing?.userMessages ?? r.user_messages,
    machine: r.machine,
    user: r.os_user,
  })) as RemoteEntry[];
}

export const REMOTE_LISTING_HEADER = [
  'ID',
  'DATE',
  'AGENT',
  'MACHINE',
  'MSGS',
  'USER',
  '+LINES',
  '-LINES',
  'FILES',
  'PROJECT',
  'TITLE',
];

/** Table rows (header excluded) for the text listing; zero counts blank as locally. */
export function remoteListingRows(entries: RemoteEntry[]): string[][] {
  const n = (v: number | undefined) => (v ? String(v) : '');
  return entries.map((e) => [
    e.shortId,
    shortTime(e.startedAt),
    e.agent,
    `${e.user}@${e.machine}`,
    n(e.messages),
    n(e.userMessages),
    n(e.linesAdded),
    n(e.linesRemoved),
    n(e.filesTouched),
    e.project ?? '',
    (e.title ?? '').replace(/\s+/g, ' ').trim().slice(0, 80),
  ]);
}
