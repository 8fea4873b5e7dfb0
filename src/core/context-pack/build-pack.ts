// Owns assembling a context pack for one segment: discover docs, hash them, chunk new or changed
// docs (docs whose SHA-256 matches the previous pack are reused as they were), id every chunk,
// and compute index, digest and metadata. Pure with respect to output: writing is write-pack.ts.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../../shared/hash.js';
import { estimateTokens } from '../../shared/tokenizer.js';
import { chunkMarkdown } from './chunker.js';
import { redactChunk } from './redact-chunk.js';
import { digestForDoc } from './digest.js';
import { discoverDocs, type DiscoverOptions } from './discover.js';
import { chunkId } from './ids.js';
import { countChars, preview } from './text-utils.js';
import {
  CHUNKING_METHOD,
  CONTEXT_PACK_SCHEMA_VERSION,
  DEFAULT_MAX_CHARS,
  GENERATOR_VERSION,
  type Chunk,
  type ChunkLocation,
  type ContextPack,
  type DigestEntry,
  type DocEntry,
  type IndexEntry,
  type SourceFile,
} from './types.js';

export interface BuildPackInput extends DiscoverOptions {
  segment: string;
  segmentDir: string;
  maxChars?: number;
  /** The pack from the last build, if any: docs with an unchanged SHA-256 are reused from it. */
  previous?: ContextPack | undefined;
}

export interface BuildPackDeps {
  now: () => Date;
}

export const defaultBuildPackDeps: BuildPackDeps = { now: () => new Date() };

export interface BuildPackResult {
  pack: ContextPack;
  reusedDocs: string[];
  chunkedDocs: string[];
  skipped: { path: string; reason: string }[];
}

/** Doc names are paths without a Markdown extension; colliding names keep their full path. */
export function docNames(paths: readonly string[]): Map<string, string> {
  const base = (p: string): string => p.replace(/\.(?:md|markdown)$/i, '');
  const counts = new Map<string, number>();
  for (const p of paths) counts.set(base(p), (counts.get(base(p)) ?? 0) + 1);
  return new Map(paths.map((p) => [p, (counts.get(base(p)) ?? 0) > 1 ? p : base(p)]));
}

interface DocParts {
  doc: DocEntry;
  index: IndexEntry[];
  chunks: Chunk[];
  digest: DigestEntry | undefined;
}

function chunkDoc(doc: string, file: string, hash: string, text: string, chars: number, maxChars: number): DocParts {
  const raw = chunkMarkdown(text, { maxChars }).map(redactChunk);
  const seen = new Map<string, number>();
  const index: IndexEntry[] = [];
  const chunks: Chunk[] = [];
  const candidates = raw.map((c) => {
    const base = chunkId(doc, c.title_path, c.text);
    const occurrence = (seen.get(base) ?? 0) + 1;
    seen.set(base, occurrence);
    const id = occurrence === 1 ? base : chunkId(doc, c.title_path, c.text, occurrence);
    const location: ChunkLocation = {
      source_path: file,
      heading_level: c.heading_level,
      char_count: countChars(c.text),
      line_count: c.end_line - c.start_line + 1,
      start_line: c.start_line,
      end_line: c.end_line,
    };
    index.push({
      id,
      doc,
      title_path: c.title_path,
      preview: preview(/\S/.test(c.body) ? c.body : c.text),
      token_est: estimateTokens(c.text),
      ...location,
    });
    chunks.push({ id, title_path: c.title_path, text: c.text, ...location });
    return { id, title_path: c.title_path, heading_level: c.heading_level, body: c.body };
  });
  // total_chars is the whole document's size in code points, as source_files[].chars (spec example).
  return {
    doc: { doc, file, sha256: hash, chunk_count: chunks.length, total_chars: chars },
    index,
    chunks,
    digest: digestForDoc(doc, candidates),
  };
}

function reusable(previous: ContextPack | undefined, maxChars: number): ContextPack | undefined {
  if (!previous || previous.schema_version !== CONTEXT_PACK_SCHEMA_VERSION) return undefined;
  if (previous.generator_version !== GENERATOR_VERSION || previous.chunking?.max_chars !== maxChars) return undefined;
  return previous;
}

type PreviousDocs = Map<string, DocParts>;

/** Groups the previous pack's entries by doc so each changed-or-not check is a map lookup. */
function previousDocs(previous: ContextPack): PreviousDocs {
  const byDoc: PreviousDocs = new Map();
  const byFile = new Map<string, DocParts>();
  for (const doc of previous.docs) {
    const parts: DocParts = { doc, index: [], chunks: [], digest: undefined };
    byDoc.set(doc.doc, parts);
    byFile.set(doc.file, parts);
  }
  for (const e of previous.index) byDoc.get(e.doc)?.index.push(e);
  for (const c of previous.chunks) byFile.get(c.source_path)?.chunks.push(c);
  for (const d of previous.digest) {
    const parts = byDoc.get(d.doc);
    if (parts) parts.digest = d;
  }
  return byDoc;
}

function reuseDoc(previous: PreviousDocs, doc: string, file: string, hash: string): DocParts | undefined {
  const parts = previous.get(doc);
  if (!parts || parts.doc.file !== file || parts.doc.sha256 !== hash) return undefined;
  const n = parts.doc.chunk_count;
  return parts.index.length === n && parts.chunks.length === n ? parts : undefined;
}

/** Builds the context pack for a segment (does not write anything). */
export function buildContextPack(input: BuildPackInput, deps: BuildPackDeps = defaultBuildPackDeps): BuildPackResult {
  const maxChars = input.maxChars ?? DEFAULT_MAX_CHARS;
  const usable = reusable(input.previous, maxChars);
  const previous = usable ? previousDocs(usable) : undefined;
  const result: BuildPackResult = {
    pack: undefined as unknown as ContextPack,
    reusedDocs: [],
    chunkedDocs: [],
    skipped: [],
  };
  const paths = discoverDocs(input.segmentDir, {
    ...input,
    onSkip: (path, reason) => result.skipped.push({ path, reason }),
  });
  const names = docNames(paths);
  const sourceFiles: SourceFile[] = [];
  const parts: DocParts[] = [];
  for (const file of paths) {
    const abs = join(input.segmentDir, file);
    const bytes = readFileSync(abs);
    if (bytes.subarray(0, 8192).includes(0)) {
      result.skipped.push({ path: file, reason: 'binary (contains NUL bytes)' });
      continue;
    }
    const stat = statSync(abs);
    const hash = sha256(bytes);
    const text = bytes.toString('utf8');
    const chars = countChars(text);
    sourceFiles.push({ path: file, sha256: hash, mtime: Math.floor(stat.mtimeMs / 1000), chars, size: bytes.length });
    const doc = names.get(file) ?? file;
    const reused = previous ? reuseDoc(previous, doc, file, hash) : undefined;
    if (reused) result.reusedDocs.push(file);
    else result.chunkedDocs.push(file);
    parts.push(reused ?? chunkDoc(doc, file, hash, text, chars, maxChars));
  }
  result.pack = {
    schema_version: CONTEXT_PACK_SCHEMA_VERSION,
    segment: input.segment,
    created_at: deps.now().toISOString(),
    generator_version: GENERATOR_VERSION,
    source_files: sourceFiles,
    chunking: { method: CHUNKING_METHOD, max_chars: maxChars },
    docs: parts.map((p) => p.doc),
    digest: parts.flatMap((p) => (p.digest ? [p.digest] : [])),
    index: parts.flatMap((p) => p.index),
    chunks: parts.flatMap((p) => p.chunks),
  };
  return result;
}
