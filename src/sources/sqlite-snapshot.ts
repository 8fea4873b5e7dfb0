// Owns opening an agent's SQLite database (OpenCode, Cursor, Crush, Zed, Goose) without leaving files in
// its folder. SQLite opens a WAL database's `-wal` and `-shm` even for a read-only handle and, read-only,
// cannot remove them on close; so unless both exist (a writer holds it), strata reads a temp copy.
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';

const BUSY_TIMEOUT_MS = 2000;

export type Db = Database.Database;

/** True when the header says WAL (file format versions 2 at offsets 18 and 19). */
function walHeader(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(20);
    return readSync(fd, head, 0, 20, 0) === 20 && (head[18] === 2 || head[19] === 2);
  } finally {
    closeSync(fd);
  }
}

/** True when opening `path` in place would create `-wal` or `-shm` beside it. */
export function needsCopy(path: string): boolean {
  return walHeader(path) && !(existsSync(`${path}-wal`) && existsSync(`${path}-shm`));
}

/** A fingerprint from file metadata alone, for a database read through a copy (nothing is opened). */
export function fileFingerprint(path: string): string {
  const parts = [path, `${path}-wal`].map((p) => {
    if (!existsSync(p)) return '-';
    const s = statSync(p);
    return `${s.size}:${s.mtimeMs}`;
  });
  return `file:${parts.join(':')}`;
}

function openReadOnly(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  db.pragma('query_only = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}

/** Runs `read` on a read-only handle of the database (in place, or on a temp copy removed afterwards). */
export function withDatabase<T>(path: string, read: (db: Db) => T): T {
  if (!needsCopy(path)) {
    const db = openReadOnly(path);
    try {
      return read(db);
    } finally {
      db.close();
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'strata-db-'));
  try {
    const copy = join(dir, basename(path));
    copyFileSync(path, copy, constants.COPYFILE_FICLONE);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`, constants.COPYFILE_FICLONE);
    const db = openReadOnly(copy);
    try {
      return read(db);
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
