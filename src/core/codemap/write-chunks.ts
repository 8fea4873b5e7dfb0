// Owns `map chunk`: plan symbol-aware chunks for mapped files, write chunk files, manifest.json and a search side index.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { countTokens as defaultCountTokens } from '../../shared/tokenizer.js';
import { planChunks } from './chunk-plan.js';
import type { SourceReader } from './render-map.js';
import type { ChunkManifest, FileMap, ManifestChunk } from './types.js';

export const DEFAULT_MAX_CHARS = 12_000;
export const MANIFEST_FILE = 'manifest.json';
export const INDEX_FILE = 'manifest.index.jsonl';
const PREVIEW_CHARS = 160;

export interface WriteChunksOptions {
  outDir: string;
  maxChars?: number;
  /** The path the user asked to chunk, recorded in the manifest. */
  source: string;
  now?: () => Date;
}

export interface WriteChunksDeps {
  readSource: SourceReader;
  countTokens?: (text: string) => number;
}

/** One line of the side index: a chunk (no `n`) or one symbol in a chunk. */
export interface IndexRecord {
  c: string;
  f: string;
  p: string;
  s: number;
  e: number;
  n?: string;
  k?: string;
  l?: number;
  x?: boolean;
  pa?: string;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Writes every chunk and the manifest into `outDir` (old chunk files there are replaced) and returns the manifest. */
export function writeChunks(maps: FileMap[], options: WriteChunksOptions, deps: WriteChunksDeps): ChunkManifest {
  const count = deps.countTokens ?? defaultCountTokens;
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const chunkDir = join(options.outDir, 'chunks');
  mkdirSync(chunkDir, { recursive: true });
  for (const name of readdirSync(chunkDir)) if (/^chunk_\d+\.txt$/.test(name)) rmSync(join(chunkDir, name));

  const manifest: ChunkManifest = {
    version: 1,
    source: options.source,
    max_chars: maxChars,
    created_at: (options.now ?? (() => new Date()))().toISOString(),
    total_chunks: 0,
    total_tokens: 0,
    files: [],
    chunks: [],
  };
  const index: string[] = [];
  for (const map of maps) {
    if (map.fallback === 'binary') {
      manifest.files.push({ file: map.path, language: map.language, lines: 0, chunks: 0, fallback: map.fallback });
      continue;
    }
    const lines = splitLines(deps.readSource(map));
    const planned = planChunks(lines.map((l) => l.length + 1), map.symbols, maxChars);
    for (const plan of planned) {
      const id = `chunk_${manifest.chunks.length}`;
      const relPath = `chunks/${id}.txt`;
      const text = lines.slice(plan.startLine - 1, plan.endLine).join('\n') + '\n';
      writeFileAtomic(join(options.outDir, relPath), text);
      const symbols = map.symbols
        .filter((s) => s.startLine >= plan.startLine && s.startLine <= plan.endLine)
        .map((s) => ({ name: s.name, kind: s.kind, line: s.startLine, exported: s.exported, ...(s.parent ? { parent: s.parent } : {}) }));
      const chunk: ManifestChunk = {
        id,
        file: map.path,
        path: relPath,
        start_line: plan.startLine,
        end_line: plan.endLine,
        chars: text.length,
        tokens: count(text),
        preview: preview(text),
        symbols,
        imports: map.imports,
      };
      if (plan.spanning.length > 0) {
        chunk.spanning = plan.spanning.map((s) => ({ name: s.name, kind: s.kind, start_line: s.startLine, end_line: s.endLine }));
      }
      manifest.chunks.push(chunk);
      manifest.total_tokens += chunk.tokens;
      const base: IndexRecord = { c: id, f: map.path, p: relPath, s: plan.startLine, e: plan.endLine };
      index.push(JSON.stringify(base));
      for (const s of symbols) index.push(JSON.stringify({ ...base, n: s.name, k: s.kind, l: s.line, x: s.exported, ...(s.parent ? { pa: s.parent } : {}) }));
    }
    const entry: ChunkManifest['files'][number] = { file: map.path, language: map.language, lines: lines.length, chunks: planned.length };
    if (map.fallback) entry.fallback = map.fallback;
    manifest.files.push(entry);
  }
  manifest.total_chunks = manifest.chunks.length;
  writeFileAtomic(join(options.outDir, INDEX_FILE), index.join('\n') + (index.length > 0 ? '\n' : ''));
  writeFileAtomic(join(options.outDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? flat.slice(0, PREVIEW_CHARS - 1) + '…' : flat;
}
