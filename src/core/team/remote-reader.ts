// Owns the team store on PostgreSQL as a SessionReader (core/retrieval/session-reader.ts): the same
// search, listing and read answers as a local store holding the same sessions, within the documented
// differences in ranking (docs/team.md), over one connection the caller opened.
import type { PgClient } from '../../store/team/pg-client.js';
import type { SessionReader } from '../retrieval/session-reader.js';
import { searchRemote } from './remote-search.js';
import { listRemoteSessions } from './remote-listing.js';
import { readRemoteSession } from './remote-session.js';

export function postgresReader(client: PgClient, name: string): SessionReader {
  return {
    name,
    search: (options) => searchRemote(client, options),
    list: (filter = {}) => listRemoteSessions(client, filter),
    read: (typedId, options = {}) => readRemoteSession(client, typedId, options),
    async close() {
      await client.end().catch(() => {});
    },
  };
}
