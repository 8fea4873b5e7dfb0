// Owns connections to a team store on PostgreSQL: the driver loaded on first use, connection errors as
// one line, the schema version check and the migrations (applied under an advisory lock).
import type { Client } from 'pg';
import { StrataError } from '../../shared/errors.js';
import { TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION, roleSql } from './pg-schema.js';

export type { Client as PgClient } from 'pg';

/** The URL without its password (for messages), e.g. postgres://alice@db:5432/strata. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** Connects with the URL (password from PGPASSWORD or the pgpass file, never from strata's config). */
export async function connectTeamStore(url: string): Promise<Client> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 15_000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new StrataError('IO', `cannot connect to ${displayUrl(url)}: ${oneLine(error)}`, { cause: error });
  }
  return client;
}

export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').trim();
}

/** The server's schema version, or 0 when it has no strata schema. */
export async function teamSchemaVersion(client: Client): Promise<number> {
  const exists = await client.query("SELECT to_regclass('strata.meta') AS t");
  if (exists.rows[0]?.t === null) return 0;
  const row = await client.query("SELECT value FROM strata.meta WHERE key = 'schema_version'");
  return Number(row.rows[0]?.value ?? 0);
}

/** Refuses a server without strata's schema or with a newer one; returns the version. */
export async function requireTeamSchema(client: Client, name: string): Promise<number> {
  const version = await teamSchemaVersion(client);
  if (version === 0) {
    throw new StrataError('CONFIG', `remote ${name} has no strata schema: run \`strata remote init ${name}\` first`);
  }
  if (version > TEAM_SCHEMA_VERSION) {
    throw new StrataError(
      'STORE_TOO_NEW',
      `remote ${name} has schema version ${version}, newer than this strata reads (${TEAM_SCHEMA_VERSION}): ` +
        'upgrade strata',
    );
  }
  if (version < TEAM_SCHEMA_VERSION) {
    throw new StrataError('CONFIG', `remote ${name} has an older schema: run \`strata remote init ${name}\``);
  }
  return version;
}

/** Creates or upgrades the schema and the roles; needs a role that may create them. */
export async function migrateTeamStore(client: Client): Promise<{ from: number; to: number }> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['strata-team-migrate']);
    await client.query('CREATE SCHEMA IF NOT EXISTS strata');
    await client.query('CREATE TABLE IF NOT EXISTS strata.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const from = await teamSchemaVersion(client);
    if (from > TEAM_SCHEMA_VERSION) {
      throw new StrataError('STORE_TOO_NEW', `the server's strata schema (${from}) is newer than this strata's`);
    }
    for (const m of TEAM_MIGRATIONS) if (m.version > from) await client.query(m.sql);
    await client.query(
      `INSERT INTO strata.meta (key, value) VALUES ('schema_version', $1)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [String(TEAM_SCHEMA_VERSION)],
    );
    await client.query(roleSql());
    await client.query('COMMIT');
    return { from, to: TEAM_SCHEMA_VERSION };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    if (error instanceof StrataError) throw error;
    throw new StrataError('IO', `cannot set up the team schema: ${oneLine(error)}`, { cause: error });
  }
}
