// Owns cross-process exclusive locks that die with their process: the lock file is a small SQLite
// database whose write lock (an OS-level fcntl lock, released by the kernel when the holder exits, however
// it exits) is the lock. A row in it names the holder for those who wait. Waited on with a timeout.
import { createRequire } from 'node:module';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { StrataError } from './errors.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

export interface LockOptions {
  /** How long to wait for another holder, in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** What the holder is doing, shown to anyone who waits. */
  command?: string;
  /** Called once when we start waiting. */
  onWait?: (holder: LockHolder | undefined) => void;
  pollMs?: number;
}

export interface Lock {
  path: string;
  release(): void;
}

/** Connections holding a lock: referenced here so garbage collection never closes one (and frees its lock). */
const HELD = new Set<Db>();

const sleepBuffer = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleepBuffer, 0, 0, ms);
}

export function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'another process';
  return `pid ${holder.pid} on ${holder.host} (${holder.command}, since ${holder.since})`;
}

function sqliteCode(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : '';
}

function inodeOf(path: string): number | undefined {
  return statSync(path, { throwIfNoEntry: false })?.ino;
}

function readHolder(db: Db): LockHolder | undefined {
  try {
    return db.prepare('SELECT pid, host, command, since FROM holder LIMIT 1').get() as LockHolder | undefined;
  } catch {
    return undefined; // no row yet, or the holder is writing it this instant
  }
}

type Attempt = { db: Db } | { holder: LockHolder | undefined } | { retry: true };

/** One try: the lock and an open connection holding it, or who holds it now. */
function tryAcquire(path: string, me: LockHolder): Attempt {
  let db: Db;
  try {
    db = new Database(path, { timeout: 0 });
  } catch (error) {
    throw new StrataError('IO', `cannot open lock file ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const inode = inodeOf(path);
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (!sqliteCode(error).startsWith('SQLITE_BUSY')) throw error;
      const holder = readHolder(db);
      db.close();
      return { holder };
    }
    // Locked, but is it still the file at `path`? A releasing holder may have removed it meanwhile.
    if (inodeOf(path) !== inode) {
      db.close();
      return { retry: true };
    }
    db.pragma('busy_timeout = 2000'); // a waiter may be reading the holder row while we commit it
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER, host TEXT, command TEXT, since TEXT)');
    db.exec('DELETE FROM holder');
    db.prepare('INSERT INTO holder VALUES (?, ?, ?, ?)').run(me.pid, me.host, me.command, me.since);
    db.exec('COMMIT');
    db.pragma('busy_timeout = 0');
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (!sqliteCode(error).startsWith('SQLITE_BUSY')) throw error;
      db.close(); // another process took it between our commit and this begin: it is theirs
      return { retry: true };
    }
    return { db };
  } catch (error) {
    if (db.open) db.close();
    const code = sqliteCode(error);
    // Not a lock database: a lock file of an older strata, or one left empty or torn by a power loss.
    // Its holder, if any, holds no OS lock on it: remove it and try again.
    if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) {
      rmSync(path, { force: true });
      return { retry: true };
    }
    throw new StrataError('IO', `cannot take lock ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Takes the lock at `path`, waiting up to `timeoutMs`; throws LOCKED naming the holder and how to recover
 * on timeout. The lock is released by release() or by the end of this process, whatever ends it.
 */
export function acquireLock(path: string, options: LockOptions = {}): Lock {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pollMs = options.pollMs ?? 100;
  mkdirSync(dirname(path), { recursive: true });
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    command: options.command ?? process.argv.slice(1).join(' '),
    since: new Date().toISOString(),
  };
  const deadline = Date.now() + timeoutMs;
  let warned = false;
  let db: Db | undefined;
  for (;;) {
    const attempt = tryAcquire(path, me);
    if ('db' in attempt) {
      db = attempt.db;
      break;
    }
    if ('retry' in attempt) continue;
    if (Date.now() >= deadline) {
      const pid = attempt.holder?.pid;
      throw new StrataError(
        'LOCKED',
        `${path} is held by ${describeHolder(attempt.holder)}; gave up after ${Math.round(timeoutMs / 1000)} s. ` +
          `The lock ends with its process: wait for it to finish, or stop it${pid ? ` (kill ${pid})` : ''} and run ` +
          `again.`,
        { details: { holder: attempt.holder } },
      );
    }
    if (!warned) {
      options.onWait?.(attempt.holder);
      warned = true;
    }
    sleepSync(pollMs);
  }
  const held = db;
  HELD.add(held);
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      // Removed while still held, so a waiter that then locks the removed file sees it is gone and retries.
      rmSync(path, { force: true });
      held.close();
      HELD.delete(held);
    },
  };
}
