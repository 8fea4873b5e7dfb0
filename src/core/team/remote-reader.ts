// Owns the team store on PostgreSQL as a SessionReader (core/retrieval/session-reader.ts): the same
// search, listing and read answers as a local store holding the same sessions, within the documented
// differences in ranking (docs/team.md), over one connection the caller opened.
import type { PgClient } from '../../store/team/pg-client.js';
import type { ReaderSearchOptions, SessionReader } from '../retrieval/session-reader.js';
import { usageError } from '../../shared/errors.js';
import { searchRemote } from './remote-search.js';
import { listRemoteSessions } from './remote-listing.js';
import { readRemoteSession } from './remote-session.js';

export function postgresReader(client: PgClient, name: string): SessionReader {
  return {
    name,
    async search(options) {
      refuseLocalOnly(options);
      return searchRemote(client, options);
    },
    list: (filter = {}) => listRemoteSessions(client, filter),
    read: (typedId, options = {}) => readRemoteSession(client, typedId, options),
    async close() {
      await client.end().catch(() => {});
    },
  };
}

/** Options the server cannot answer are refused, never dropped: a dropped filter would widen the answer. */
function refuseLocalOnly(options: ReaderSearchOptions): void {
  const asked = [
    options.regex && 'regex',
    options.ignoreCase && 'ignoreCase',
    options.session && 'session',
    options.in && options.in.length > 0 && 'in',
    options.after && 'after',
    options.before && 'before',
    options.mode && options.mode !== 'lexical' && `mode ${options.mode}`,
  ].filter(Boolean);
  if (asked.length > 0) throw usageError(`${asked.join(', ')}: local store only, not on a team store`);
}
