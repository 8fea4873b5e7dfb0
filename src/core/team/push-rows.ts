// Owns the upserts of a push: rows of many sessions per statement (unnest over column arrays), bounded
// by count and text size; conflicts update in place, never delete.
import type { PgClient } from '../../store/team/pg-client.js';
import type { LocalBlock, LocalMessage, LocalSession } from './local-sessions.js';

export type OwnedMessage = LocalMessage & { agent: string; sessionId: string };
export type OwnedBlock = LocalBlock & { agent: string; sessionId: string };
export type SessionRow = Omit<LocalSession, 'id'> & { listing: string | null };

const MAX_ROWS = 2000;
const MAX_CHARS = 8_000_000;

/** Slices of `rows` of at most MAX_ROWS rows and (past the first row) MAX_CHARS characters. */
function* slices<T>(rows: T[], size: (row: T) => number): Generator<T[]> {
  for (let at = 0; at < rows.length; ) {
    let end = at;
    let chars = 0;
    while (end < rows.length && end - at < MAX_ROWS && (end === at || chars < MAX_CHARS)) chars += size(rows[end++]!);
    yield rows.slice(at, end);
    at = end;
  }
}

const noNul = (s: string | null) => (s === null ? null : s.replaceAll('\u0000', ''));

export async function upsertMessages(client: PgClient, machine: string, osUser: string, rows: OwnedMessage[]) {
  for (const part of slices(rows, () => 1)) {
    await client.query(
      `INSERT INTO strata.messages (machine, os_user, agent, session_id, key, position, role, kind, timestamp, archived,
         model)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[],
         $9::text[], $10::bool[], $11::text[])
       ON CONFLICT (machine, agent, session_id, key) DO UPDATE SET position = excluded.position,
         role = excluded.role, kind = excluded.kind, timestamp = excluded.timestamp, model = excluded.model,
         archived = excluded.archived OR strata.messages.archived`,
      [
        machine,
        osUser,
        part.map((m) => m.agent),
        part.map((m) => m.sessionId),
        part.map((m) => m.key),
        part.map((m) => m.position),
        part.map((m) => m.role),
        part.map((m) => m.kind),
        part.map((m) => m.timestamp),
        part.map((m) => m.archived),
        part.map((m) => m.model),
      ],
    );
  }
}

export async function upsertBlocks(client: PgClient, machine: string, osUser: string, rows: OwnedBlock[]) {
  for (const part of slices(rows, (b) => b.text.length + (b.toolInput?.length ?? 0))) {
    await client.query(
      `INSERT INTO strata.blocks (machine, os_user, agent, session_id, message_key, idx, field, noise, text, kind,
         tool_name, tool_call_id, tool_input, is_error, meta)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[],
         $10::text[], $11::text[], $12::text[], $13::text[], $14::bool[], $15::text[])
       ON CONFLICT (machine, agent, session_id, message_key, idx) DO UPDATE SET field = excluded.field,
         noise = excluded.noise, text = excluded.text, kind = excluded.kind, tool_name = excluded.tool_name,
         tool_call_id = excluded.tool_call_id, tool_input = excluded.tool_input, is_error = excluded.is_error,
         meta = excluded.meta`,
      [
        machine,
        osUser,
        part.map((b) => b.agent),
        part.map((b) => b.sessionId),
        part.map((b) => b.messageKey),
        part.map((b) => b.idx),
        part.map((b) => b.field),
        part.map((b) => b.noise),
        part.map((b) => noNul(b.text)),
        part.map((b) => b.kind),
        part.map((b) => b.toolName),
        part.map((b) => b.toolCallId),
        part.map((b) => noNul(b.toolInput)),
        part.map((b) => b.isError !== 0),
        part.map((b) => noNul(b.meta)),
      ],
    );
  }
}

/** The session rows, with their fingerprints: written last in a batch's transaction, they are its checkpoint. */
export async function upsertSessions(client: PgClient, machine: string, osUser: string, rows: SessionRow[]) {
  for (const part of slices(rows, (s) => s.listing?.length ?? 0)) {
    await client.query(
      `INSERT INTO strata.sessions (machine, os_user, agent, external_id, project, title, started_at, ended_at,
         parent_external_id, messages, user_messages, fingerprint, models, listing, pushed_at)
       SELECT $1, $2, a, e, p, t, sa, ea, pe, m, u, f, mo, l::jsonb, now() FROM unnest($3::text[], $4::text[],
         $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[], $11::int[], $12::text[],
         $13::text[], $14::text[]) AS r(a, e, p, t, sa, ea, pe, m, u, f, mo, l)
       ON CONFLICT (machine, agent, external_id) DO UPDATE SET os_user = excluded.os_user,
         project = excluded.project, title = excluded.title, started_at = excluded.started_at,
         ended_at = excluded.ended_at, parent_external_id = excluded.parent_external_id,
         messages = excluded.messages, user_messages = excluded.user_messages,
         fingerprint = excluded.fingerprint, models = excluded.models, listing = excluded.listing,
         pushed_at = now()`,
      [
        machine,
        osUser,
        part.map((s) => s.agent),
        part.map((s) => s.externalId),
        part.map((s) => s.project),
        part.map((s) => s.title),
        part.map((s) => s.startedAt),
        part.map((s) => s.endedAt),
        part.map((s) => s.parentExternalId),
        part.map((s) => s.messages),
        part.map((s) => s.userMessages),
        part.map((s) => s.fingerprint),
        part.map((s) => s.models),
        part.map((s) => noNul(s.listing)),
      ],
    );
  }
}
