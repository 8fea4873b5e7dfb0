// Owns `strata search --remote NAME`: the same output and exit codes as a local search, from a team store.
import { join } from 'node:path';
import { dataDir } from '../../shared/paths.js';
import { StrataError } from '../../shared/errors.js';
import { formatTable, printJson, printLine, type CliIo } from '../io.js';
import type { RemoteEntry } from '../../core/team/remote-listing.js';
import type { ReaderListFilter, SessionReader } from '../../core/retrieval/session-reader.js';
import { parseNonNegativeInt, parsePositiveInt } from './options.js';
import type { PgClient } from '../../store/team/pg-client.js';
import type { Store } from '../../store/db.js';
import type { AgentName } from '../../shared/model.js';

/** A connection to the named remote, its schema checked (exit 4 when newer than this strata). */
export async function connectRemote(io: CliIo, name: string): Promise<{ client: PgClient; name: string }> {
  const [{ findRemote }, { connectTeamStore, requireTeamSchema }] = await Promise.all([
    import('../../core/team/remotes.js'),
    import('../../store/team/pg-client.js'),
  ]);
  const remote = findRemote(join(dataDir(io.env), 'remotes.json'), name);
  const client = await connectTeamStore(remote.url);
  try {
    await requireTeamSchema(client, remote.name);
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  return { client, name: remote.name };
}

/** The named remote as a SessionReader. */
export async function openRemoteReader(io: CliIo, name: string): Promise<SessionReader> {
  const { postgresReader } = await import('../../core/team/remote-reader.js');
  const remote = await connectRemote(io, name);
  return postgresReader(remote.client, remote.name);
}

/** A throwaway local store the named remote fills (`load`), for commands that then run the local code. */
export async function openRemoteScratch(
  io: CliIo,
  name: string,
  load: (client: PgClient) => Promise<Store>,
): Promise<Store> {
  const { client } = await connectRemote(io, name);
  try {
    return await load(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export interface RemoteSearchFlags {
  remote: string;
  context?: string;
  maxCount?: string;
  limit?: string;
  project?: string;
  machine?: string;
  user?: string;
  filesWithMatches?: boolean;
  count?: boolean;
  json?: boolean;
  regex?: boolean;
}

export async function runRemoteSearch(
  io: CliIo,
  query: string,
  opts: RemoteSearchFlags,
  agents: AgentName[] | undefined,
): Promise<void> {
  if (opts.regex) throw new StrataError('USAGE', '-E is not available with --remote (full-text search only)');
  const { formatSearch } = await import('../../core/retrieval/format-search.js');
  const reader = await openRemoteReader(io, opts.remote);
  try {
    const result = await reader.search({
      query,
      ...(opts.context !== undefined ? { context: parseNonNegativeInt(opts.context, '--context') } : {}),
      ...(opts.maxCount !== undefined ? { maxPerSession: parsePositiveInt(opts.maxCount, '--max-count') } : {}),
      ...(opts.limit !== undefined ? { limit: parsePositiveInt(opts.limit, '--limit') } : {}),
      ...(opts.project ? { project: opts.project } : {}),
      ...(opts.machine ? { machine: opts.machine } : {}),
      ...(opts.user ? { user: opts.user } : {}),
      ...(agents ? { agent: agents } : {}),
    });
    if (opts.json) printJson(io, result);
    if (result.sessions.length === 0) throw new StrataError('NO_MATCH', `no matches on ${reader.name}`);
    if (opts.json) return;
    const view = opts.filesWithMatches ? 'sessions' : opts.count ? 'counts' : 'hits';
    printLine(io.stdout, formatSearch(result, view));
  } finally {
    await reader.close();
  }
}

/** `strata index --remote NAME`: the team's sessions, newest first, with the machine that pushed them. */
export async function runRemoteIndex(io: CliIo, name: string, filter: ReaderListFilter, json: boolean): Promise<void> {
  const listing = await import('../../core/team/remote-listing.js');
  const reader = await openRemoteReader(io, name);
  try {
    const entries = (await reader.list(filter)) as RemoteEntry[];
    if (json) return printJson(io, entries);
    if (entries.length === 0) return printLine(io.stderr, `no sessions on ${reader.name} (push with \`strata push\`)`);
    printLine(io.stdout, formatTable(listing.remoteListingRows(entries), listing.REMOTE_LISTING_HEADER));
  } finally {
    await reader.close();
  }
}
