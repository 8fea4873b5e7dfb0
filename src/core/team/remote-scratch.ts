// Owns the team store's answers that reuse local code whole: `blame --remote` (the sessions whose blocks
// name the file's base name, copied into a throwaway local store) and `logbook show --remote` (the pushed
// logbooks copied likewise), so their output and exit codes are the local ones.
import type { PgClient } from '../../store/team/pg-client.js';
import type { Store } from '../../store/db.js';
import { rebuildAllSessionStats } from '../../store/session-stats.js';
import { writeLogbookRow } from '../../store/logbook-table.js';
import { baseName } from '../file-history/path-match.js';
import { copySession, type Found, withScratchStore } from './remote-session.js';

/** Sessions copied for one blame: enough for the default limit of 50 entries many times over. */
const BLAME_SESSIONS = 500;

/** A local store holding every server session (of `machine`, if given) that mentions `path`'s base name. */
export async function remoteBlameStore(client: PgClient, path: string, machine?: string): Promise<Store> {
  const like = `%${baseName(path).replace(/[\\%_]/g, '\\$&')}%`;
  const sessions = await client.query<Found>(
    `SELECT * FROM strata.sessions s WHERE ($2::text IS NULL OR s.machine = $2) AND EXISTS (
       SELECT 1 FROM strata.blocks b WHERE b.machine = s.machine AND b.agent = s.agent
         AND b.session_id = s.external_id AND (b.tool_input ILIKE $1 OR b.text ILIKE $1))
     ORDER BY s.started_at DESC NULLS LAST LIMIT ${BLAME_SESSIONS}`,
    [like, machine ?? null],
  );
  return withScratchStore(async (db) => {
    const seen = new Set<string>();
    for (const s of sessions.rows) {
      // The local schema keys a session by agent and id: the newest machine's copy wins.
      const key = `${s.agent}\u0000${s.external_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      await copySession(client, db, s, false);
    }
    // Blame names a session by its first prompt (its statistics row), computed as at ingest.
    rebuildAllSessionStats(db);
  });
}

/** A local store holding the pushed logbooks (of `machine`, else each workspace's newest). */
export async function remoteLogbookStore(client: PgClient, machine?: string): Promise<Store> {
  const rows = await client.query<{
    workspace: string;
    kind: string;
    data: string;
    events: number;
    updated_at: string;
  }>(
    `SELECT DISTINCT ON (workspace) workspace, kind, data, events, updated_at FROM strata.logbooks
     WHERE $1::text IS NULL OR machine = $1 ORDER BY workspace, updated_at DESC`,
    [machine ?? null],
  );
  return withScratchStore(async (db) => {
    for (const r of rows.rows) {
      writeLogbookRow(db, {
        workspace: r.workspace,
        kind: r.kind,
        data: r.data,
        events: r.events,
        generatedAt: r.updated_at,
        updatedAt: r.updated_at,
      });
    }
  });
}
