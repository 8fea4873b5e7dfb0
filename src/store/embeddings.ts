// Owns the passage vectors stored beside the FTS index: one row per (model, block), unit length quantized
// to int8 (×127: a quarter of float32's size, stored inline in its page, scanned 3–4× faster), and which
// models a store holds. Created by the first embed run, so a store never embedded
// carries nothing; vectors are derived data (a re-embed only adds rows, never touches stored texts).
import type { Database } from 'better-sqlite3';
import { cachedStatement } from './statement-cache.js';

export interface EmbeddingModelRow {
  model: string;
  provider: string;
  baseUrl: string | null;
  dim: number;
  updatedAt: string;
}

export interface PendingPassage {
  id: number;
  text: string;
}

/**
 * Passages worth a vector: user and assistant text, tool output only where short (a long log embeds as
 * noise), never noise or empty blocks. SQL over alias `b`.
 */
export const EMBEDDED_BLOCKS_SQL =
  "b.noise IS NULL AND length(trim(b.text)) > 1 AND (b.field IN ('user', 'assistant') OR " +
  "(b.field = 'tool_output' AND length(b.text) <= 1500))";

export function ensureEmbeddingTables(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS embedding_models (
      model TEXT PRIMARY KEY, provider TEXT NOT NULL, base_url TEXT, dim INTEGER NOT NULL, updated_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS block_vectors (
      model TEXT NOT NULL, block_id INTEGER NOT NULL, text_hash TEXT NOT NULL, vector BLOB NOT NULL,
      PRIMARY KEY (model, block_id)
    );
    CREATE INDEX IF NOT EXISTS block_vectors_hash ON block_vectors(model, text_hash);
  `);
}

function hasTables(db: Database): boolean {
  const row = cachedStatement(
    db,
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'embedding_models'",
  ).get();
  return row !== undefined;
}

/** The models this store holds vectors of, the most recently written first. */
export function embeddingModels(db: Database): EmbeddingModelRow[] {
  if (!hasTables(db)) return [];
  return cachedStatement(
    db,
    `SELECT model, provider, base_url AS baseUrl, dim, updated_at AS updatedAt FROM embedding_models
        ORDER BY updated_at DESC, model`,
  ).all() as EmbeddingModelRow[];
}

export function recordEmbeddingModel(db: Database, row: EmbeddingModelRow): void {
  db.prepare(
    `INSERT INTO embedding_models (model, provider, base_url, dim, updated_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(model) DO UPDATE SET provider = excluded.provider, base_url = excluded.base_url,
        dim = excluded.dim, updated_at = excluded.updated_at`,
  ).run(row.model, row.provider, row.baseUrl, row.dim, row.updatedAt);
}

/** Passages without a vector of `model`, oldest first (a resumed run continues where it stopped). */
export function pendingPassages(db: Database, model: string, afterId: number, limit: number): PendingPassage[] {
  return db
    .prepare(
      `SELECT b.id, b.text FROM blocks b WHERE b.id > ? AND ${EMBEDDED_BLOCKS_SQL}
        AND NOT EXISTS (SELECT 1 FROM block_vectors v WHERE v.model = ? AND v.block_id = b.id)
        ORDER BY b.id LIMIT ?`,
    )
    .all(afterId, model, limit) as PendingPassage[];
}

export function countPassages(db: Database, model: string): { total: number; embedded: number } {
  const total = db.prepare(`SELECT COUNT(*) FROM blocks b WHERE ${EMBEDDED_BLOCKS_SQL}`).pluck().get() as number;
  const embedded = hasTables(db)
    ? (db.prepare('SELECT COUNT(*) FROM block_vectors WHERE model = ?').pluck().get(model) as number)
    : 0;
  return { total, embedded };
}

/** The newest block with a vector of `model` (0 for none); runs go in block order, so those below have one. */
export function lastEmbeddedBlockId(db: Database, model: string): number {
  if (!hasTables(db)) return 0;
  return (db.prepare('SELECT max(block_id) FROM block_vectors WHERE model = ?').pluck().get(model) as number) ?? 0;
}

/** Passages after `afterId` without a vector of `model`: reads only that range of blocks. */
export function countPendingAfter(db: Database, model: string, afterId: number): number {
  return db
    .prepare(
      `SELECT COUNT(*) FROM blocks b WHERE b.id > ? AND ${EMBEDDED_BLOCKS_SQL}
        AND NOT EXISTS (SELECT 1 FROM block_vectors v WHERE v.model = ? AND v.block_id = b.id)`,
    )
    .pluck()
    .get(afterId, model) as number;
}

/** A stored vector of the same text under the same model (the embedding cache). */
export function vectorForHash(db: Database, model: string, textHash: string): Buffer | undefined {
  return db
    .prepare('SELECT vector FROM block_vectors WHERE model = ? AND text_hash = ? LIMIT 1')
    .pluck()
    .get(model, textHash) as Buffer | undefined;
}

export function writeVectors(
  db: Database,
  model: string,
  rows: Array<{ blockId: number; textHash: string; vector: Float32Array }>,
): void {
  const insert = db.prepare(
    'INSERT OR REPLACE INTO block_vectors (model, block_id, text_hash, vector) VALUES (?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const r of rows) insert.run(model, r.blockId, r.textHash, toBlob(r.vector));
  })();
}

export const VECTOR_SCALE = 127;

/** A unit vector as int8 components (×127, rounded). */
export function toBlob(vector: Float32Array): Buffer {
  const out = Buffer.alloc(vector.length);
  for (let i = 0; i < vector.length; i++)
    out.writeInt8(Math.max(-127, Math.min(127, Math.round(vector[i]! * VECTOR_SCALE))), i);
  return out;
}

/** The stored components as a view (no copy): dot products divide by VECTOR_SCALE. */
export function int8View(blob: Buffer): Int8Array {
  return new Int8Array(blob.buffer, blob.byteOffset, blob.byteLength);
}

export function fromBlob(blob: Buffer): Float32Array {
  const view = int8View(blob);
  const out = new Float32Array(view.length);
  for (let i = 0; i < view.length; i++) out[i] = view[i]! / VECTOR_SCALE;
  return out;
}
