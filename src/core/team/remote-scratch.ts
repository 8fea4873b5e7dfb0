// Owns the team store's answers that reuse local code whole: `blame --remote` (the sessions whose blocks
// name the file's base name, copied into a throwaway local store) and `logbook show --remote` (the pushed
// logbooks copied likewise), so their output and exit codes are the local ones.
import type { PgClient } from '../../store/team/pg-client.js';
import type { Store } from '../../store/db.js';
import { rebuildAllSessionStats } from '../../store/session-stats.js';
import { writeLogbookRow } from '../../store/logbook-table.js';
import { baseName } from '../file-history/path-match.js';
import { CJK_CLASS } from '../../store/team/pg-schema.js';
import { copySession, type Found, withScratchStore } from './remote-session.js';

/** Sessions copied for one blame: enough for the default limit of 50 entries many times over. */
const BLAME_SESSIONS = 500;

/** A local store holding every server session (of `machine`, if given) that mentions `path`'s base name. */
export async function remoteBlameStore(client: PgClient, path: string, machine?: string): Promise<Store> {
  const query = await blameSessionsQuery(client, path, machine);
  const sessions = await client.query<Found>(query.text, query.values);
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

const PHRASE = `phraseto_tsquery('english', translate($1, '/._-:', '     '))`;

/** The query of the sessions `remoteBlameStore` copies (exported for the test of its plan). */
export async function blameSessionsQuery(client: PgClient, path: string, machine?: string) {
  const match = await blockMatch(client, baseName(path));
  // Blocks as the local blame's candidates: calls, replies and thinking, outside noise. Sessions started
  // together are copied in id order (the local ingest order of most agents' files): blame breaks ties of
  // time by the order messages were stored. Of two machines' copies of a session, the newest push wins.
  // Materialized: the blocks come from the index first, whatever the planner thinks of the sessions' count.
  const text = `WITH hit AS MATERIALIZED (
       SELECT DISTINCT b.machine, b.agent, b.session_id FROM strata.blocks b
       WHERE ${match.condition} AND b.kind IN ('tool_call', 'text', 'thinking') AND b.noise IS NULL)
     SELECT s.* FROM hit JOIN strata.sessions s
       ON s.machine = hit.machine AND s.agent = hit.agent AND s.external_id = hit.session_id
     WHERE $2::text IS NULL OR s.machine = $2
     ORDER BY s.started_at DESC NULLS LAST, s.external_id, s.pushed_at DESC LIMIT ${BLAME_SESSIONS}`;
  return { text, values: [match.value, machine ?? null] };
}

/**
 * Blocks naming a base name, through an index: its words as a phrase in the full-text index (`db.ts` →
 * db <-> ts, split as texts are; the index holds each text's first 32 KB), a CJK name as a substring in the
 * trigram index. A name of stop words alone is looked for by a scan. `value` is the condition's `$1`.
 */
async function blockMatch(client: PgClient, base: string): Promise<{ condition: string; value: string }> {
  const like = `%${base.replace(/[\\%_]/g, '\\$&')}%`;
  if (new RegExp(CJK_CLASS).test(base))
    return { condition: `b.text ~ '${CJK_CLASS}' AND b.text ILIKE $1`, value: like };
  const words = await client.query<{ n: number }>(`SELECT numnode(${PHRASE}) AS n`, [base]);
  if (Number(words.rows[0]?.n ?? 0) === 0) return { condition: 'b.text ILIKE $1', value: like };
  return { condition: `b.tsv @@ ${PHRASE}`, value: base };
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
