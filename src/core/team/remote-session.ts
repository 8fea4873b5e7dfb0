// Owns reading one session of a team store: its id resolved on the server as locally (exact id, then a
// unique prefix), its rows copied into a throwaway local store that the local read code then reads.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { type SessionDetail, sessionDetail } from '../browse/session-detail.js';
import type { ListingEntry } from '../retrieval/session-listing.js';
import { rebuildAllSessionStats } from '../../store/session-stats.js';
import { StrataError } from '../../shared/errors.js';
import { openStore, type Store } from '../../store/db.js';
import { type ReadOptions, type ReadResult, readSession } from '../retrieval/read-session.js';
import type { PgClient } from '../../store/team/pg-client.js';
import {
  type TeamBlockRow,
  type TeamMessageRow,
  type TeamSessionRow,
  writeTeamSession,
} from '../../store/team/materialize.js';

export type Found = TeamSessionRow & { machine: string };

async function resolveRemoteSession(client: PgClient, typed: string): Promise<Found> {
  const exact = await client.query<Found>('SELECT * FROM strata.sessions WHERE external_id = $1', [typed]);
  let rows = exact.rows;
  if (rows.length === 0) {
    const prefix = typed.replace(/[\\%_]/g, '\\$&');
    rows = (
      await client.query<Found>(
        'SELECT * FROM strata.sessions WHERE external_id LIKE $1 ORDER BY external_id LIMIT 21',
        [`${prefix}%`],
      )
    ).rows;
  }
  if (rows.length === 0) throw new StrataError('NOT_FOUND', `no session ${typed} on the remote`);
  if (rows.length > 1) {
    const names = rows.slice(0, 5).map((r) => `${r.external_id} (${r.agent}@${r.machine})`);
    throw new StrataError('AMBIGUOUS', `session ${typed} is ambiguous on the remote: ${names.join(', ')}`);
  }
  return rows[0]!;
}

/** A local store holding only the named session; closing it deletes it. */
export async function openRemoteSession(client: PgClient, typed: string): Promise<Store> {
  return materializeSession(client, await resolveRemoteSession(client, typed));
}

/** The named session read by the local read code: the same result as a local `readSession`. */
export async function readRemoteSession(
  client: PgClient,
  typed: string,
  options: ReadOptions = {},
): Promise<ReadResult> {
  const s = await resolveRemoteSession(client, typed);
  const store = await materializeSession(client, s);
  try {
    return readSession(store.db, s.external_id, options);
  } finally {
    store.close();
  }
}

/** The named session as the web app's detail page reads it locally. */
export async function remoteSessionDetail(client: PgClient, typed: string): Promise<SessionDetail> {
  const s = await resolveRemoteSession(client, typed);
  const store = await materializeSession(client, s);
  let detail: SessionDetail;
  try {
    rebuildAllSessionStats(store.db);
    detail = sessionDetail(store.db, s.external_id);
  } finally {
    store.close();
  }
  // Subagents are copied as headings only: their size, relation and title come from their pushed listing.
  const children = await client.query<{ external_id: string; listing: Partial<ListingEntry> | null }>(
    `SELECT external_id, listing FROM strata.sessions WHERE machine = $1 AND agent = $2
     AND parent_external_id = $3`,
    [s.machine, s.agent, s.external_id],
  );
  const listed = new Map(children.rows.map((r) => [r.external_id, r.listing ?? {}]));
  const subagents = detail.subagents.map((link) => {
    const l = listed.get(link.id) ?? {};
    return { ...link, title: l.title ?? link.title, relation: l.relation ?? link.relation, messages: l.messages ?? 0 };
  });
  return { ...detail, subagents };
}

async function materializeSession(client: PgClient, s: Found): Promise<Store> {
  return withScratchStore(async (db) => copySession(client, db, s, true));
}

/** Copies one server session (and, with `children`, its subagents' headings) into a local store. */
export async function copySession(client: PgClient, db: Database, s: Found, children: boolean): Promise<void> {
  const where = 'machine = $1 AND agent = $2 AND session_id = $3';
  const args = [s.machine, s.agent, s.external_id];
  const messages = await client.query<TeamMessageRow>(
    `SELECT key, position, role, kind, timestamp, model, archived FROM strata.messages WHERE ${where}
     ORDER BY position`,
    args,
  );
  const blocks = await client.query<TeamBlockRow>(
    `SELECT message_key, idx, kind, field, noise, text, tool_name, tool_call_id, tool_input, is_error, meta
     FROM strata.blocks WHERE ${where}`,
    args,
  );
  const subagents = children
    ? await client.query<TeamSessionRow>(
        'SELECT * FROM strata.sessions WHERE machine = $1 AND agent = $2 AND parent_external_id = $3',
        args,
      )
    : { rows: [] };
  writeTeamSession(db, s, messages.rows, blocks.rows, subagents.rows);
}

/** A throwaway local store filled by `fill`; closing it deletes it. */
export async function withScratchStore(fill: (db: Database) => Promise<void>): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-remote-'));
  try {
    const store = openStore(join(dir, 'session.db'));
    try {
      await fill(store.db);
    } catch (error) {
      store.close();
      throw error;
    }
    return {
      ...store,
      close() {
        store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
