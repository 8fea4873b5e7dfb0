// Owns the one read interface the shells use over either store: search, list and read sessions. The
// local SQLite store implements it here; the team store on PostgreSQL in core/team/remote-reader.ts.
// Both pass test/support/store-contract.ts; where their ranking differs, the suite says how.
import type { Database } from 'better-sqlite3';
import { type SearchResult, search } from './search.js';
import { type ListingEntry, type ListingFilter, listSessions } from './session-listing.js';
import { type ReadOptions, type ReadResult, readSession } from './read-session.js';
import type { AgentName } from '../../shared/model.js';

export interface ReaderSearchOptions {
  query: string;
  context?: number;
  maxPerSession?: number;
  limit?: number;
  project?: string;
  agent?: AgentName[];
  /** Team store only: sessions pushed from this machine / by this user (a local store is one machine). */
  machine?: string;
  user?: string;
}

export interface ReaderListFilter extends ListingFilter {
  machine?: string;
  user?: string;
}

/** A listing entry; from a team store it also names the machine and user that pushed it. */
export type ReaderEntry = ListingEntry & { machine?: string; user?: string };

export interface SessionReader {
  /** `local` or the remote's name, for messages ("no matches on team"). */
  readonly name: string;
  search(options: ReaderSearchOptions): Promise<SearchResult>;
  list(filter?: ReaderListFilter): Promise<ReaderEntry[]>;
  /** Exit 2 (NOT_FOUND / AMBIGUOUS) for an unknown or ambiguous id, as locally. */
  read(typedId: string, options?: ReadOptions): Promise<ReadResult>;
  close(): Promise<void>;
}

/** The local store as a SessionReader; `home` resolves `~/x` projects as `strata index` does. */
export function sqliteReader(db: Database, home: string | null = null): SessionReader {
  return {
    name: 'local',
    async search({ machine: _m, user: _u, ...options }) {
      return search(db, options);
    },
    async list(filter = {}) {
      const { machine: _m, user: _u, ...rest } = filter;
      return listSessions(db, rest, home);
    },
    async read(typedId, options = {}) {
      return readSession(db, typedId, options);
    },
    async close() {},
  };
}
