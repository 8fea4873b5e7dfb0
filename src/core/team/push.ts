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
import { type OwnedBlock, type OwnedMessage, upsertBlocks, upsertMessages, upsertSessions } from './push-rows.js';
import { projectMatches } from '../../shared/project-match.js';

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
  if (options.excludeProjects?.some((p) => projectMatches(s.project ?? '', p))) return true;
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
  const clean = (text: string | null) => (text === null ? null : redacted(text, secrets));
  let done = 0;
  for (const batch of batchesOf(db, todo)) {
    const messages: OwnedMessage[] = [];
    const blocks: OwnedBlock[] = [];
    for (const s of batch) {
      const owner = { agent: s.agent, sessionId: s.externalId };
      for (const m of localMessages(db, s.id)) messages.push({ ...m, ...owner });
      for (const b of localBlocks(db, s.id)) {
        blocks.push({
          ...b,
          ...owner,
          text: redacted(b.text, secrets),
          toolInput: clean(b.toolInput),
          meta: clean(b.meta),
        });
      }
    }
    const rows = batch.map(({ id: _id, ...s }) => {
      const entry = listing.get(key(s.agent, s.externalId));
      return { ...s, title: clean(s.title), listing: entry ? clean(JSON.stringify(entry)) : null };
    });
    // One transaction per batch, the session rows (with their fingerprints) last: a kill anywhere leaves
    // every session either wholly pushed with its new fingerprint or pushed again next time.
    await client.query('BEGIN');
    try {
      await upsertMessages(client, machine, osUser, messages);
      await upsertBlocks(client, machine, osUser, blocks);
      await upsertSessions(client, machine, osUser, rows);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
    report.sessionsPushed += batch.length;
    report.messages += messages.length;
    report.blocks += blocks.length;
    done += batch.length;
    options.onProgress?.(done, todo.length);
  }
  // Fresh statistics after a large push: questions keep their rare words by them (remote-terms.ts).
  // A role that does not own the tables gets a warning, not an error, and autovacuum does it later.
  if (report.blocks >= 10_000) await client.query('ANALYZE strata.blocks');
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

/** Sessions in batches of at most 500 sessions or about 16 MB of stored text. */
function* batchesOf(db: Database, sessions: LocalSession[]): Generator<LocalSession[]> {
  const size = db.prepare(
    'SELECT COALESCE(sum(length(b.text)), 0) FROM messages m JOIN blocks b ON b.message_id = m.id ' +
      'WHERE m.session_id = ?',
  );
  let batch: LocalSession[] = [];
  let chars = 0;
  for (const s of sessions) {
    batch.push(s);
    chars += size.pluck().get(s.id) as number;
    if (batch.length >= 500 || chars >= 16_000_000) {
      yield batch;
      batch = [];
      chars = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

async function pushLogbooks(
  db: Database,
  client: PgClient,
  options: PushOptions,
  secrets: { n: number },
): Promise<number> {
  let pushed = 0;
  for (const row of listLogbookRows(db)) {
    if (options.excludeProjects?.some((p) => projectMatches(row.workspace, p))) continue;
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
