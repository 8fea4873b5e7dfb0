// Owns the one read interface the shells use over either store: search, list and read sessions. The
// local SQLite store implements it here; the team store on PostgreSQL in core/team/remote-reader.ts.
// Both pass test/support/store-contract.ts; where their ranking differs, the suite says how.
import type { Database } from 'better-sqlite3';
import { type SearchResult, search } from './search.js';
import { type ListingEntry, type ListingFilter, listSessions } from './session-listing.js';
import { type ReadOptions, type ReadResult, readSession } from './read-session.js';
import type { Selector } from './selectors.js';
import type { AgentName } from '../../shared/model.js';
import { type SearchMode, searchWithMode } from '../embed/mode-search.js';
import type { EmbeddingProvider } from '../embed/types.js';

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
  /** Local store only (a team store refuses them, USAGE): regular expressions, selectors, time, meaning. */
  regex?: boolean;
  ignoreCase?: boolean;
  session?: string;
  in?: Selector[];
  after?: string;
  before?: string;
  mode?: SearchMode;
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

/**
 * The local store as a SessionReader; `home` resolves `~/x` projects as `strata index` does. With
 * `embeddings` (the store's provider, asked for per query), searches rank as `--mode` says, else lexically.
 */
export function sqliteReader(
  db: Database,
  home: string | null = null,
  embeddings?: () => EmbeddingProvider | undefined,
): SessionReader {
  return {
    name: 'local',
    async search({ machine: _m, user: _u, mode, ...options }) {
      if (!embeddings && mode === undefined) return search(db, options);
      const provider = mode === 'lexical' ? undefined : embeddings?.();
      return searchWithMode(db, { ...options, ...(mode ? { mode } : {}) }, provider);
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
