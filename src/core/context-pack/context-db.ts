// Owns <segment>/_ctx/context.db: the spec's `chunks` table plus FTS5 indexes of exact and stemmed words
// (title path weighted above body in bm25), built in a temp file and renamed into place; and the runtime lookups
// getContext(id) (primary key) and searchContext(query, k).
import Database from 'better-sqlite3';
import { renameSync, rmSync } from 'node:fs';
import { StrataError } from '../../shared/errors.js';
import { checkQuerySize } from '../../shared/query-limits.js';
import { estimateTokens } from '../../shared/tokenizer.js';
import { buildFtsQuery, hasCjk, invalidQueryError, queryTerms } from './fts-query.js';
import { STOP_WORDS, questionWords } from '../retrieval/question-words.js';
import { preview } from './text-utils.js';
import type { Chunk, ChunkLocation, ContextPack } from './types.js';

const CONTEXT_DB_VERSION = 2;
/** bm25 column weights: title_path, text. */
const BM25_WEIGHTS = [5.0, 1.0] as const;

const SCHEMA_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE chunks (
  id TEXT PRIMARY KEY,
  doc TEXT,
  title_path TEXT,
  text TEXT,
  source_path TEXT,
  heading_level INTEGER,
  char_count INTEGER,
  line_count INTEGER,
  start_line INTEGER,
  end_line INTEGER
);
CREATE TABLE superseded_chunks (
  id TEXT PRIMARY KEY, doc TEXT, title_path TEXT, text TEXT, source_path TEXT,
  heading_level INTEGER, char_count INTEGER, line_count INTEGER, start_line INTEGER, end_line INTEGER
);
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  title_path, text, content='', tokenize='unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE chunks_stem USING fts5(
  title_path, text, content='', tokenize='porter unicode61 remove_diacritics 2'
);
`;

/** Temp files a build leaves beside context.db and context_pack.json when it is killed. */
export const BUILD_TEMP_RE = /^(?:context\.db|\.context_pack\.json)\.\d+\.\d+\.tmp$/;

/**
 * Writes context.db for a pack: built beside the target under a temp name, then renamed over it.
 * Chunks of `previous` that the new pack dropped stay fetchable by id (not searchable), so a JSON
 * pack from the last build never names an id the database lacks, whichever file is renamed first.
 */
/** A chunk's values in the column order of the chunks and superseded_chunks tables. */
function chunkRow(c: Chunk, doc: string): unknown[] {
  const { id, title_path, text, source_path, heading_level, char_count, line_count, start_line, end_line } = c;
  return [
    id,
    doc,
    JSON.stringify(title_path),
    text,
    source_path,
    heading_level,
    char_count,
    line_count,
    start_line,
    end_line,
  ];
}

export function writeContextDb(dbPath: string, pack: ContextPack, previous?: ContextPack): void {
  const tmp = `${dbPath}.${process.pid}.${Date.now()}.tmp`;
  rmSync(tmp, { force: true });
  const db = new Database(tmp);
  try {
    db.pragma('page_size = 8192');
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -65536');
    db.exec(SCHEMA_SQL);
    const docOf = new Map(pack.index.map((e) => [e.id, e.doc]));
    const insert = db.prepare(
      `INSERT INTO chunks (id, doc, title_path, text, source_path, heading_level, char_count, line_count,
        start_line, end_line)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    db.transaction(() => {
      for (const c of pack.chunks) {
        insert.run(...chunkRow(c, docOf.get(c.id) ?? ''));
      }
      if (previous) {
        const current = new Set(pack.chunks.map((c) => c.id));
        const previousDoc = new Map(previous.index.map((e) => [e.id, e.doc]));
        const keep = db.prepare(
          `INSERT OR IGNORE INTO superseded_chunks (id, doc, title_path, text, source_path, heading_level,
            char_count, line_count, start_line, end_line)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        );
        for (const c of previous.chunks) {
          if (current.has(c.id) || typeof c.text !== 'string') continue;
          keep.run(...chunkRow(c, previousDoc.get(c.id) ?? ''));
        }
      }
      indexChunks(db);
      // Secondary indexes are cheaper to build once over the loaded table than row by row.
      db.exec('CREATE INDEX idx_chunks_doc ON chunks(doc); CREATE INDEX idx_chunks_title_path ON chunks(title_path);');
      setMeta.run('db_version', String(CONTEXT_DB_VERSION));
      setMeta.run('segment', pack.segment);
      setMeta.run('created_at', pack.created_at);
      setMeta.run('generator_version', pack.generator_version);
    })();
    db.close();
    renameSync(tmp, dbPath);
  } catch (error) {
    if (db.open) db.close();
    rmSync(tmp, { force: true });
    throw error;
  }
}

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * Fills the contentless FTS tables with what is searched: the title path plus the file's name stem
 * (`renfrew` finds Renfrew.md), and the text with each CJK character apart, so a Latin word inside CJK
 * text (`执行rebase`) is a word of its own.
 */
function indexChunks(db: Database.Database): void {
  const rows = db.prepare('SELECT rowid, title_path, text, source_path FROM chunks').all() as {
    rowid: number;
    title_path: string;
    text: string;
    source_path: string;
  }[];
  const inserts = ['chunks_fts', 'chunks_stem'].map((t) =>
    db.prepare(`INSERT INTO ${t} (rowid, title_path, text) VALUES (?, ?, ?)`),
  );
  for (const r of rows) {
    const stem = (r.source_path.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');
    const title = `${(JSON.parse(r.title_path) as string[]).join(' ')} ${stem}`;
    const text = hasCjk(r.text) ? r.text.replace(CJK_CHAR, ' $& ') : r.text;
    for (const insert of inserts) insert.run(r.rowid, title, text);
  }
}

/** The key/value metadata written with the database (db_version, segment, created_at, ...). */
export function readContextDbMeta(db: Database.Database): Record<string, string> {
  const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export interface ContextChunk extends Chunk {
  doc: string;
  token_est: number;
}

export interface SearchHit {
  id: string;
  doc: string;
  title_path: string[];
  preview: string;
  source_path: string;
  start_line: number;
  end_line: number;
  token_est: number;
  /** bm25 score: lower is better (0 for substring matches). */
  score: number;
}

export interface SearchResult {
  query: string;
  /** The MATCH expression run, or the substring terms for CJK queries. */
  match: string;
  /** 'all' = every word matched; 'any' = no chunk had every word, so any word was accepted. */
  mode: 'all' | 'any' | 'explicit' | 'substring';
  hits: SearchHit[];
}

interface ChunkRow extends ChunkLocation {
  id: string;
  doc: string;
  title_path: string;
  text: string;
  score?: number;
}

/** Opens a context.db read-only; NOT_FOUND when it does not exist. */
export function openContextDb(dbPath: string): Database.Database {
  try {
    return new Database(dbPath, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new StrataError('NOT_FOUND', `no context database at ${dbPath}; run \`strata pack build\` first`, {
      cause: error,
    });
  }
}

function toChunk(row: ChunkRow): ContextChunk {
  const { score: _score, title_path, ...rest } = row;
  return { ...rest, title_path: JSON.parse(title_path) as string[], token_est: estimateTokens(row.text) };
}

/** The chunk with this id, or undefined. */
export function getContext(db: Database.Database, id: string): ContextChunk | undefined {
  let row = db.prepare('SELECT * FROM chunks WHERE id = ?').get(id) as ChunkRow | undefined;
  if (!row && hasSuperseded(db))
    row = db.prepare('SELECT * FROM superseded_chunks WHERE id = ?').get(id) as ChunkRow | undefined;
  return row ? toChunk(row) : undefined;
}

/** Databases built before superseded chunks were kept have no such table. */
function hasSuperseded(db: Database.Database): boolean {
  return hasTable(db, 'superseded_chunks');
}

function toHit(row: ChunkRow): SearchHit {
  const c = toChunk(row);
  const body = c.text.replace(/^ {0,3}#{1,6}(?:[ \t][^\n]*)?\n/, '');
  return {
    id: c.id,
    doc: c.doc,
    title_path: c.title_path,
    preview: preview(body),
    source_path: c.source_path,
    start_line: c.start_line,
    end_line: c.end_line,
    token_est: c.token_est,
    score: Math.round((row.score ?? 0) * 1e4) / 1e4,
  };
}

// Rank inside FTS5 first and join only the k winners, so chunk text is read for k rows, not all matches.
const matchSql = (table: string): string => `SELECT c.*, m.score FROM (
    SELECT rowid, bm25(${table}, ${BM25_WEIGHTS.join(', ')}) AS score FROM ${table}
    WHERE ${table} MATCH ? ORDER BY score, rowid LIMIT ?
  ) m JOIN chunks c ON c.rowid = m.rowid ORDER BY m.score, c.rowid`;

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name) !== undefined;
}

/**
 * Full-text search over one segment's chunks, best first: chunks matching the words as written come
 * first, then chunks matching only their stems (porter: "hangs" finds "hanging").
 */
export function searchContext(db: Database.Database, query: string, k = 10): SearchResult {
  checkQuerySize(query);
  const limit = Math.max(1, Math.min(Math.floor(k), 1_000_000));
  if (hasCjk(query) && !/["()*]/.test(query)) return substringSearch(db, query, limit);
  const fts = buildFtsQuery(query);
  const tables = hasTable(db, 'chunks_stem') ? ['chunks_fts', 'chunks_stem'] : ['chunks_fts'];
  const statements = tables.map((t) => db.prepare(matchSql(t)));
  const run = (expression: string): ChunkRow[] => {
    const seen = new Set<string>();
    const rows: ChunkRow[] = [];
    for (const stmt of statements) {
      if (rows.length >= limit) break;
      let found: ChunkRow[];
      try {
        found = stmt.all(expression, limit) as ChunkRow[];
      } catch (error) {
        throw invalidQueryError(query, error);
      }
      for (const row of found) {
        if (rows.length >= limit || seen.has(row.id)) continue;
        seen.add(row.id);
        rows.push(row);
      }
    }
    return rows;
  };
  if (fts.kind === 'explicit')
    return { query, match: fts.expression, mode: 'explicit', hits: run(fts.expression).map(toHit) };
  // A question is searched by its words, not its question and stop words (as `strata search` does).
  const kept = questionWords(query) ? fts.terms.filter((t) => !STOP_WORDS.has(t.toLowerCase())) : fts.terms;
  if (kept.length > 0 && kept.length < fts.terms.length) return { ...searchContext(db, kept.join(' '), k), query };
  const all = run(fts.all);
  if (all.length > 0 || fts.terms.length === 1) return { query, match: fts.all, mode: 'all', hits: all.map(toHit) };
  return { query, match: fts.any, mode: 'any', hits: run(fts.any).map(toHit) };
}

/** unicode61 does not split CJK runs into words, so CJK queries match substrings (title hits first). */
function substringSearch(db: Database.Database, query: string, limit: number): SearchResult {
  const terms = queryTerms(query).map((t) => t.toLowerCase());
  if (terms.length === 0)
    throw new StrataError('INVALID_QUERY', `search query "${query.trim()}" has no words to search for`);
  const where = terms.map(() => "instr(lower(title_path || ' ' || text), ?) > 0").join(' AND ');
  const titleHits = terms.map(() => '(instr(lower(title_path), ?) > 0)').join(' + ');
  const rows = db
    .prepare(`SELECT *, -(${titleHits}) AS score FROM chunks WHERE ${where} ORDER BY score, rowid LIMIT ?`)
    .all(...terms, ...terms, limit) as ChunkRow[];
  return { query, match: terms.join(' '), mode: 'substring', hits: rows.map(toHit) };
}
