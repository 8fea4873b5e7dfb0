// Owns `strata search --remote NAME`: the same output and exit codes as a local search, from a team store.
import { join } from 'node:path';
import { dataDir } from '../../shared/paths.js';
import { StrataError } from '../../shared/errors.js';
import { formatTable, printJson, printLine, type CliIo } from '../io.js';
import type { RemoteListingFilter } from '../../core/team/remote-listing.js';
import { parseNonNegativeInt, parsePositiveInt } from './options.js';
import type { AgentName } from '../../shared/model.js';
import type { Store } from '../../store/db.js';

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
  const [{ findRemote }, { connectTeamStore, requireTeamSchema }, { searchRemote }, { formatSearch }] =
    await Promise.all([
      import('../../core/team/remotes.js'),
      import('../../store/team/pg-client.js'),
      import('../../core/team/remote-search.js'),
      import('../../core/retrieval/format-search.js'),
    ]);
  const remote = findRemote(join(dataDir(io.env), 'remotes.json'), opts.remote);
  const client = await connectTeamStore(remote.url);
  try {
    await requireTeamSchema(client, remote.name);
    const result = await searchRemote(client, {
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
    if (result.sessions.length === 0) throw new StrataError('NO_MATCH', `no matches on ${remote.name}`);
    if (opts.json) return;
    const view = opts.filesWithMatches ? 'sessions' : opts.count ? 'counts' : 'hits';
    printLine(io.stdout, formatSearch(result, view));
  } finally {
    await client.end().catch(() => {});
  }
}

/** `strata read --remote NAME`: the session copied from the team store into a throwaway local store. */
export async function openRemoteRead(io: CliIo, name: string, session: string): Promise<Store> {
  const [{ findRemote }, { connectTeamStore, requireTeamSchema }, { openRemoteSession }] = await Promise.all([
    import('../../core/team/remotes.js'),
    import('../../store/team/pg-client.js'),
    import('../../core/team/remote-session.js'),
  ]);
  const remote = findRemote(join(dataDir(io.env), 'remotes.json'), name);
  const client = await connectTeamStore(remote.url);
  try {
    await requireTeamSchema(client, remote.name);
    return await openRemoteSession(client, session);
  } finally {
    await client.end().catch(() => {});
  }
}

/** `strata index --remote NAME`: the team's sessions, newest first, with the machine that pushed them. */
export async function runRemoteIndex(
  io: CliIo,
  name: string,
  filter: RemoteListingFilter,
  json: boolean,
): Promise<void> {
  const [{ findRemote }, { connectTeamStore, requireTeamSchema }, listing] = await Promise.all([
    import('../../core/team/remotes.js'),
    import('../../store/team/pg-client.js'),
    import('../../core/team/remote-listing.js'),
  ]);
  const remote = findRemote(join(dataDir(io.env), 'remotes.json'), name);
  const client = await connectTeamStore(remote.url);
  try {
    await requireTeamSchema(client, remote.name);
    const entries = await listing.listRemoteSessions(client, filter);
    if (json) return printJson(io, entries);
    if (entries.length === 0) return printLine(io.stderr, `no sessions on ${remote.name} (push with \`strata push\`)`);
    printLine(io.stdout, formatTable(listing.remoteListingRows(entries), listing.REMOTE_LISTING_HEADER));
  } finally {
    await client.end().catch(() => {});
  }
}
