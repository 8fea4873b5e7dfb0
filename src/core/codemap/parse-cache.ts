// Owns the codemap parse cache: FileMaps keyed by sha256(cache version + language + content) in its own SQLite file.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { dataDir } from '../../shared/paths.js';
import { sha256 } from '../../shared/hash.js';
import { StrataError } from '../../shared/errors.js';

/** Bump when extractors change what they produce: old entries then stop matching. */
export const PARSER_VERSION = 'codemap-parser-3';
/** Bump when the table layout changes: the cache is dropped and rebuilt. */
export const CACHE_SCHEMA_VERSION = 1;

export function defaultCachePath(): string {
  return join(dataDir(), 'codemap-cache.db');
}

/** Cache key of one file's analysis. */
export function cacheKey(language: string | null, content: Uint8Array): string {
  return sha256(Buffer.concat([Buffer.from(`${PARSER_VERSION}\0${language ?? ''}\0`), content]));
}

export interface ParseCache {
  /** The stored JSON value, or undefined. */
  get(key: string): unknown;
  put(key: string, value: unknown): void;
  close(): void;
}

export function openParseCache(path: string = defaultCachePath()): ParseCache {
  let db: Database.Database;
  try {
    mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
      | { value: string }
      | undefined;
    if (!row || Number(row.value) !== CACHE_SCHEMA_VERSION) {
      db.exec('DROP TABLE IF EXISTS parsed_files');
      db.exec('CREATE TABLE parsed_files (key TEXT PRIMARY KEY, data TEXT NOT NULL, created_at TEXT NOT NULL)');
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)").run(
        String(CACHE_SCHEMA_VERSION),
      );
    }
  } catch (error) {
    throw new StrataError(
      'IO',
      `cannot open codemap cache ${path}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const select = db.prepare('SELECT data FROM parsed_files WHERE key = ?');
  const insert = db.prepare('INSERT OR REPLACE INTO parsed_files (key, data, created_at) VALUES (?, ?, ?)');
  return {
    get(key) {
      const row = select.get(key) as { data: string } | undefined;
      if (!row) return undefined;
      try {
        return JSON.parse(row.data) as unknown;
      } catch {
        return undefined;
      }
    },
    put(key, value) {
      insert.run(key, JSON.stringify(value), new Date().toISOString());
    },
    close() {
      db.close();
    },
  };
}
