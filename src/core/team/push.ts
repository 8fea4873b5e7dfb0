// Owns `strata push`: send the local store's sessions, messages, blocks and logbooks to a team store.
// Incremental by fingerprint (the server keeps each session's, written in the same transaction as its
// rows, so a push killed anywhere resumes exactly); upserts only, never a delete; every text passes
// the redactor again on its way out.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { redactText } from '../../shared/redact/index.js';
import { StrataError } from '../../shared/errors.js';
import type { PgClient } from '../../store/team/pg-client.js';
import { listLogbookRows, readLogbookRow } from '../../store/logbook-table.js';
import { listSessions } from '../retrieval/session-listing.js';
import { localBlocks, localMessages, localSessions, type LocalSession } from './local-sessions.js';
import { pathHasSegments } from './project-match.js';

/** A project folder holding this file never leaves the machine. */
export const OPT_OUT_FILE = '.strata-no-push';

export interface PushOptions {
  machine: string;
  osUser: string;
  agents?: string[];
  excludeProjects?: string[];
  onProgress?: (done: number, total: number) => void;
}

export interface PushReport {
  sessions: number;
  sessionsPushed: number;
  sessionsUnchanged: number;
  sessionsExcluded: number;
  messages: number;
  blocks: number;
  logbooks: number;
  redactions: number;
}

function excluded(s: LocalSession, options: PushOptions): boolean {
  if (options.agents && !options.agents.includes(s.agent)) return true;
  if (!s.project) return false;
  if (options.excludeProjects?.some((p) => pathHasSegments(s.project ?? '', p))) return true;
  return existsSync(join(s.project, OPT_OUT_FILE));
}

function redacted(text: string, count: { n: number }): string {
  const r = redactText(text);
  count.n += r.findings.length;
  return r.text;
}

export async function pushStore(db: Database, client: PgClient, options: PushOptions): Promise<PushReport> {
  const { machine, osUser } = options;
  await claimMachine(client, machine);
  const server = new Map<string, string>();
  const known = await client.query('SELECT agent, external_id, fingerprint FROM strata.sessions WHERE machine = $1', [
    machine,
  ]);
  for (const r of known.rows) server.set(`${r.agent}\u0000${r.external_id}`, r.fingerprint);
  const sessions = localSessions(db);
  const report: PushReport = {
    sessions: sessions.length,
    sessionsPushed: 0,
    sessionsUnchanged: 0,
    sessionsExcluded: 0,
    messages: 0,
    blocks: 0,
    logbooks: 0,
    redactions: 0,
  };
  const secrets = { n: 0 };
  const todo = sessions.filter((s) => {
    if (excluded(s, options)) {
      report.sessionsExcluded++;
      return false;
    }
    if (server.get(`${s.agent}\u0000${s.externalId}`) === s.fingerprint) {
      report.sessionsUnchanged++;
      return false;
    }
    return true;
  });
  const key = (agent: string, externalId: string) => `${agent}\u0000${externalId}`;
  const listing = new Map(listSessions(db, { all: true }).map((e) => [key(e.agent, e.id), e] as const));
  for (const [n, s] of todo.entries()) {
    const messages = localMessages(db, s.id);
    const blocks = localBlocks(db, s.id);
    await client.query('BEGIN');
    try {
      await upsertMessages(client, machine, osUser, s, messages);
      await upsertBlocks(
        client,
        machine,
        osUser,
        s,
        blocks.map((b) => ({
          ...b,
          text: redacted(b.text, secrets),
          toolInput: b.toolInput === null ? null : redacted(b.toolInput, secrets),
          meta: b.meta === null ? null : redacted(b.meta, secrets),
        })),
      );
      // The session row (with its fingerprint) last, in the same transaction: it is the checkpoint.
      await client.query(
        `INSERT INTO strata.sessions (machine, os_user, agent, external_id, project, title, started_at, ended_at,
           parent_external_id, messages, user_messages, fingerprint, models, listing, pushed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, now())
         ON CONFLICT (machine, agent, external_id) DO UPDATE SET os_user = excluded.os_user,
           project = excluded.project, title = excluded.title, started_at = excluded.started_at,
           ended_at = excluded.ended_at, parent_external_id = excluded.parent_external_id,
           messages = excluded.messages, user_messages = excluded.user_messages,
           fingerprint = excluded.fingerprint, models = excluded.models, listing = excluded.listing,
           pushed_at = now()`,
        [
          machine,
          osUser,
          s.agent,
          s.externalId,
          s.project,
          s.title === null ? null : redacted(s.title, secrets),
          s.startedAt,
          s.endedAt,
          s.parentExternalId,
          s.messages,
          s.userMessages,
          s.fingerprint,
          s.models,
          listing.has(key(s.agent, s.externalId))
            ? redacted(JSON.stringify(listing.get(key(s.agent, s.externalId))), secrets)
            : null,
        ],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
    report.sessionsPushed++;
    report.messages += messages.length;
    report.blocks += blocks.length;
    options.onProgress?.(n + 1, todo.length);
  }
  report.logbooks = await pushLogbooks(db, client, options, secrets);
  report.redactions = secrets.n;
  return report;
}

/** Claims the machine name for this login role, or refuses when another role pushes under it. */
async function claimMachine(client: PgClient, machine: string): Promise<void> {
  await client.query('INSERT INTO strata.machines (machine) VALUES ($1) ON CONFLICT (machine) DO NOTHING', [machine]);
  const owner = await client.query('SELECT db_user, current_user AS me FROM strata.machines WHERE machine = $1', [
    machine,
  ]);
  const row = owner.rows[0] as { db_user: string; me: string } | undefined;
  if (row && row.db_user !== row.me) {
    throw new StrataError(
      'CONFIG',
      `machine "${machine}" is pushed by role ${row.db_user}, not ${row.me}: push under another --machine name`,
    );
  }
}

async function upsertMessages(
  client: PgClient,
  machine: string,
  osUser: string,
  s: LocalSession,
  messages: ReturnType<typeof localMessages>,
): Promise<void> {
  for (let at = 0; at < messages.length; at += 2000) {
    const part = messages.slice(at, at + 2000);
    await client.query(
      `INSERT INTO strata.messages (machine, os_user, agent, session_id, key, position, role, kind, timestamp, archived,
         model)
       SELECT $1, $2, $3, $4, * FROM unnest($5::text[], $6::int[], $7::text[], $8::text[], $9::text[], $10::bool[],
         $11::text[])
       ON CONFLICT (machine, agent, session_id, key) DO UPDATE SET position = excluded.position,
         role = excluded.role, kind = excluded.kind, timestamp = excluded.timestamp, model = excluded.model,
         archived = excluded.archived OR strata.messages.archived`,
      [
        machine,
        osUser,
        s.agent,
        s.externalId,
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

async function upsertBlocks(
  client: PgClient,
  machine: string,
  osUser: string,
  s: LocalSession,
  blocks: ReturnType<typeof localBlocks>,
): Promise<void> {
  for (let at = 0; at < blocks.length; ) {
    // Batches bounded by count and by text size, so one huge tool output does not make a huge statement.
    let end = at;
    let bytes = 0;
    while (end < blocks.length && end - at < 2000 && bytes < 8_000_000) bytes += blocks[end++]!.text.length;
    const part = blocks.slice(at, end);
    at = end;
    await client.query(
      `INSERT INTO strata.blocks (machine, os_user, agent, session_id, message_key, idx, field, noise, text, kind,
         tool_name, tool_call_id, tool_input, is_error, meta)
       SELECT $1, $2, $3, $4, * FROM unnest($5::text[], $6::int[], $7::text[], $8::text[], $9::text[], $10::text[],
         $11::text[], $12::text[], $13::text[], $14::bool[], $15::text[])
       ON CONFLICT (machine, agent, session_id, message_key, idx) DO UPDATE SET field = excluded.field,
         noise = excluded.noise, text = excluded.text, kind = excluded.kind, tool_name = excluded.tool_name,
         tool_call_id = excluded.tool_call_id, tool_input = excluded.tool_input, is_error = excluded.is_error,
         meta = excluded.meta`,
      [
        machine,
        osUser,
        s.agent,
        s.externalId,
        part.map((b) => b.messageKey),
        part.map((b) => b.idx),
        part.map((b) => b.field),
        part.map((b) => b.noise),
        part.map((b) => b.text.replaceAll('\u0000', '')),
        part.map((b) => b.kind),
        part.map((b) => b.toolName),
        part.map((b) => b.toolCallId),
        part.map((b) => b.toolInput?.replaceAll('\u0000', '') ?? null),
        part.map((b) => b.isError !== 0),
        part.map((b) => b.meta?.replaceAll('\u0000', '') ?? null),
      ],
    );
  }
}

async function pushLogbooks(
  db: Database,
  client: PgClient,
  options: PushOptions,
  secrets: { n: number },
): Promise<number> {
  let pushed = 0;
  for (const row of listLogbookRows(db)) {
    if (options.excludeProjects?.some((p) => pathHasSegments(row.workspace, p))) continue;
    if (existsSync(join(row.workspace, OPT_OUT_FILE))) continue;
    const full = readLogbookRow(db, row.workspace);
    if (!full) continue;
    await client.query(
      `INSERT INTO strata.logbooks (machine, os_user, workspace, kind, data, events, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (machine, workspace) DO UPDATE SET kind = excluded.kind, data = excluded.data,
         events = excluded.events, updated_at = excluded.updated_at
       WHERE strata.logbooks.updated_at IS DISTINCT FROM excluded.updated_at`,
      [
        options.machine,
        options.osUser,
        full.workspace,
        full.kind,
        redacted(full.data, secrets),
        full.events,
        full.updatedAt,
      ],
    );
    pushed++;
  }
  return pushed;
}
