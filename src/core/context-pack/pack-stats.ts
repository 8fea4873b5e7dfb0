// Owns the numbers `strata pack stats` reports for a segment: docs, chunks, sizes, and what it
// costs in tokens to load the digest and index versus every chunk.
import { existsSync, statSync } from 'node:fs';
import { estimateTokens } from '../../shared/tokenizer.js';
import { openContextDb, readContextDbMeta } from './context-db.js';
import type { SegmentPaths } from './segment.js';
import type { ContextPack } from './types.js';

export interface DocStats {
  doc: string;
  file: string;
  chunks: number;
  chars: number;
  token_est: number;
}

export interface PackStats {
  segment: string;
  segment_dir: string;
  pack_path: string;
  db_path: string;
  schema_version: number;
  generator_version: string;
  created_at: string;
  max_chars: number;
  docs: number;
  chunks: number;
  total_chars: number;
  /** Estimated tokens of every chunk's text: the cost of reading everything. */
  chunks_token_est: number;
  /** Estimated tokens of the digest and index as JSON: the cost of the always-loaded layers. */
  digest_token_est: number;
  index_token_est: number;
  pack_bytes: number;
  db_bytes: number | null;
  /** False when context.db is missing or was written by a different build than the JSON pack. */
  db_in_sync: boolean;
  per_doc: DocStats[];
}

function dbMatches(pack: ContextPack, dbPath: string): boolean {
  if (!existsSync(dbPath)) return false;
  const db = openContextDb(dbPath);
  try {
    const meta = readContextDbMeta(db);
    return meta.created_at === pack.created_at && meta.segment === pack.segment;
  } catch {
    return false;
  } finally {
    db.close();
  }
}

export function packStats(pack: ContextPack, paths: SegmentPaths): PackStats {
  const tokensByDoc = new Map<string, number>();
  for (const e of pack.index) tokensByDoc.set(e.doc, (tokensByDoc.get(e.doc) ?? 0) + e.token_est);
  return {
    segment: pack.segment,
    segment_dir: paths.dir,
    pack_path: paths.packPath,
    db_path: paths.dbPath,
    schema_version: pack.schema_version,
    generator_version: pack.generator_version,
    created_at: pack.created_at,
    max_chars: pack.chunking.max_chars,
    docs: pack.docs.length,
    chunks: pack.chunks.length,
    total_chars: pack.docs.reduce((n, d) => n + d.total_chars, 0),
    chunks_token_est: pack.index.reduce((n, e) => n + e.token_est, 0),
    digest_token_est: estimateTokens(JSON.stringify(pack.digest)),
    index_token_est: estimateTokens(JSON.stringify(pack.index)),
    pack_bytes: statSync(paths.packPath).size,
    db_bytes: existsSync(paths.dbPath) ? statSync(paths.dbPath).size : null,
    db_in_sync: dbMatches(pack, paths.dbPath),
    per_doc: pack.docs.map((d) => ({
      doc: d.doc,
      file: d.file,
      chunks: d.chunk_count,
      chars: d.total_chars,
      token_est: tokensByDoc.get(d.doc) ?? 0,
    })),
  };
}
