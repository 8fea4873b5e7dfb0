// Owns the shape of a context pack (schema v1): the JSON written to <segment>/_ctx/context_pack.json.
// Field names follow /work/shared/spec/context-pack.md exactly; schemas/context-pack.schema.json mirrors them.

export const CONTEXT_PACK_SCHEMA_VERSION = 1;
export const CHUNKING_METHOD = 'headings+paragraph_fallback+fence_aware';
export const DEFAULT_MAX_CHARS = 6000;
/** Bump when chunking, ids or digest change, so a rebuild never reuses docs chunked the old way. */
export const GENERATOR_VERSION = '0.2.0';

export interface SourceFile {
  /** Path relative to the segment directory, `/`-separated. */
  path: string;
  sha256: string;
  /** Modification time in whole seconds since the epoch. */
  mtime: number;
  /** Characters (Unicode code points) after decoding as UTF-8. */
  chars: number;
  /** Size in bytes. */
  size: number;
}

export interface Chunking {
  method: typeof CHUNKING_METHOD;
  max_chars: number;
}

export interface DocEntry {
  doc: string;
  file: string;
  sha256: string;
  chunk_count: number;
  total_chars: number;
}

export interface DigestEntry {
  doc: string;
  summary: string;
  source_chunk_ids: string[];
}

/** Where a chunk sits in its source file; lines are 1-based and inclusive. */
export interface ChunkLocation {
  source_path: string;
  heading_level: number;
  char_count: number;
  line_count: number;
  start_line: number;
  end_line: number;
}

export interface IndexEntry extends ChunkLocation {
  id: string;
  doc: string;
  title_path: string[];
  preview: string;
  token_est: number;
}

export interface Chunk extends ChunkLocation {
  id: string;
  title_path: string[];
  text: string;
}

export interface ContextPack {
  schema_version: typeof CONTEXT_PACK_SCHEMA_VERSION;
  segment: string;
  created_at: string;
  generator_version: string;
  source_files: SourceFile[];
  chunking: Chunking;
  docs: DocEntry[];
  digest: DigestEntry[];
  index: IndexEntry[];
  chunks: Chunk[];
}

/** A chunk as the chunker cuts it, before it gets an id. */
export interface RawChunk {
  title_path: string[];
  heading_level: number;
  start_line: number;
  end_line: number;
  text: string;
  /** The text without its heading line(s); used for previews and the digest. */
  body: string;
}
