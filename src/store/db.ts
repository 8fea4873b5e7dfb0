// Owns opening the SQLite store: WAL mode, busy timeout, versioned migrations, and clear errors for
// corrupted databases or databases written by a newer strata (never overwritten).
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { existsSync, mkdirSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { StrataError, corruptStoreError, describeError, isCorruptDatabaseError } from '../shared/errors.js';
import { projectMatches } from '../shared/project-match.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

export interface OpenStoreOptions {
  readonly?: boolean;
  migrations?: Migration[];
  /** Milliseconds SQLite waits on a locked database before failing. */
  busyTimeoutMs?: number;
}

export interface Store {
  db: Db;
  path: string;
  schemaVersion: number;
  close(): void;
}

// Loaded with require, not import: importing a CommonJS package from ESM first runs Node's export
// scanner over its sources, which costs every short-lived command (search, read) several milliseconds.
const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

const SQLITE_MAGIC = 'SQLite format 3\u0000';

function assertLooksLikeSqlite(path: string): void {
  if (!existsSync(path)) return;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    if (n === 0) return;
    if (n < 16 || buf.toString('latin1') !== SQLITE_MAGIC) {
      throw corruptStoreError(path, new Error('not a SQLite database'));
    }
  } finally {
    closeSync(fd);
  }
}

/** PRAGMA quick_check (every page, no index contents): a damaged store is refused before any write. */
export function assertIntact(db: Db, path: string): void {
  if (!existsSync(path) || statSync(path).size === 0) return;
  const rows = db.pragma('quick_check(1)', { simple: false }) as { quick_check: string }[];
  const verdict = rows[0]?.quick_check ?? 'ok';
  if (verdict !== 'ok') throw corruptStoreError(path, new Error(verdict));
}

export function latestSchemaVersion(migrations: Migration[] = MIGRATIONS): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0);
}

/**
 * Applies the migrations the store lacks. Each one re-reads the version inside its own write transaction
 * (BEGIN IMMEDIATE): several processes opening a fresh store at once apply each migration exactly once.
 */
export function runMigrations(db: Db, migrations: Migration[]): void {
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) >= migration.version) return;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}

/**
 * Opens (creating and migrating when needed) the store at `path`. While several processes open a fresh
 * store at once, two errors are transient: SQLITE_SCHEMA (another process's first migration changed the
 * schema under us) and an SQLITE_BUSY that SQLite returns at once, without its busy handler (switching
 * to WAL, or a lock upgrade that could deadlock). Both are retried; a BUSY after a real wait is not.
 */
export function openStore(path: string, options: OpenStoreOptions = {}): Store {
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    try {
      return openStoreOnce(path, options);
    } catch (error) {
      const message = error instanceof StrataError ? error.message : '';
      const transient =
        /\bSQLITE_SCHEMA\b/.test(message) || (/\bSQLITE_BUSY\b/.test(message) && Date.now() - started < 1000);
      if (!transient || attempt >= 10) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20 * attempt);
    }
  }
}

function openStoreOnce(path: string, options: OpenStoreOptions): Store {
  const migrations = [...(options.migrations ?? MIGRATIONS)].sort((a, b) => a.version - b.version);
  assertLooksLikeSqlite(path);
  if (options.readonly && !existsSync(path)) {
    throw new StrataError('NOT_FOUND', `no strata store at ${path} yet; run \`strata ingest\` first`);
  }
  if (!options.readonly) mkdirSync(dirname(path), { recursive: true });
  let db: Db;
  try {
    db = new Database(path, { readonly: Boolean(options.readonly), fileMustExist: Boolean(options.readonly) });
  } catch (error) {
    throw corruptStoreError(path, error);
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 30_000}`);
    // Check the version before any pragma that writes (journal_mode): a newer store stays untouched.
    const current = db.pragma('user_version', { simple: true }) as number;
    const latest = latestSchemaVersion(migrations);
    if (current > latest) {
      throw new StrataError(
        'STORE_TOO_NEW',
        `store ${path} has schema version ${current}, newer than this strata understands (${latest}); upgrade ` +
          `strata. The store was left untouched.`,
      );
    }
    if (!options.readonly) {
      // Switching a rollback-journal store to WAL, or migrating it, writes to it: check it whole first.
      const converting = String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal';
      if (converting || current < latest) assertIntact(db, path);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.function('strata_project_match', { deterministic: true }, (project: unknown, query: unknown) =>
      projectMatches(typeof project === 'string' ? project : null, String(query)) ? 1 : 0,
    );
    db.pragma('cache_size = -16000');
    db.pragma('temp_store = MEMORY');
    if (current < latest) {
      if (options.readonly) {
        throw new StrataError(
          'STORE_TOO_NEW',
          `store ${path} needs migrating (version ${current} → ${latest}); run any writing command (\`strata ` +
            `ingest\`) first`,
        );
      }
      runMigrations(db, migrations);
    }
    return { db, path, schemaVersion: latest, close: () => db.close() };
  } catch (error) {
    db.close();
    if (error instanceof StrataError) throw error;
    const message = describeError(error);
    if (isCorruptDatabaseError(error) || /corrupt/i.test(message)) throw corruptStoreError(path, error);
    throw new StrataError('IO', `cannot open store ${path}: ${message}`, { cause: error });
  }
}
