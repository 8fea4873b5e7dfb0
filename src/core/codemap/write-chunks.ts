// Owns `map chunk`: plan symbol-aware chunks for mapped files, write chunk files, manifest.json and a search side
// index.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { countTokens as defaultCountTokens } from '../../shared/tokenizer.js';
import { redactText } from '../../shared/redact/index.js';
import { planChunks, type PlannedChunk } from './chunk-plan.js';
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
      manifest.files.push({
        file: map.path,
        language: map.language,
        lines: 0,
        chunks: 0,
        imports: [],
        fallback: map.fallback,
      });
      continue;
    }
    const lines = splitLines(deps.readSource(map));
    const planned = planChunks(
      lines.map((l) => l.length + 1),
      map.symbols,
      maxChars,
    ).flatMap((plan) => cutLongLine(plan, lines, maxChars));
    for (const plan of planned) {
      const id = `chunk_${manifest.chunks.length}`;
      const relPath = `chunks/${id}.txt`;
      const line = lines[plan.startLine - 1] ?? '';
      const text = redactText(
        plan.cols
          ? line.slice(plan.cols[0] - 1, plan.cols[1]) + (plan.cols[1] >= line.length ? '\n' : '')
          : lines.slice(plan.startLine - 1, plan.endLine).join('\n') + '\n',
      ).text;
      writeFileAtomic(join(options.outDir, relPath), text);
      const starting =
        plan.cols && plan.cols[0] > 1
          ? []
          : map.symbols.filter((s) => s.startLine >= plan.startLine && s.startLine <= plan.endLine);
      const symbols = starting.map((s) => ({
        name: s.name,
        kind: s.kind,
        line: s.startLine,
        exported: s.exported,
        ...(s.parent ? { parent: s.parent } : {}),
      }));
      const chunk: ManifestChunk = {
        id,
        file: map.path,
        path: relPath,
        start_line: plan.startLine,
        end_line: plan.endLine,
        chars: text.length,
        tokens: count(text),
        ...(plan.cols ? { start_col: plan.cols[0], end_col: plan.cols[1] } : {}),
        preview: preview(text),
        symbols,
      };
      // Every piece of a split symbol names it, so a search for the symbol finds all its pieces.
      const continued = map.symbols.filter(
        (s) =>
          (s.startLine < plan.startLine || (plan.cols && plan.cols[0] > 1 && s.startLine === plan.startLine)) &&
          s.endLine >= plan.startLine,
      );
      const spanning = [...new Set([...plan.spanning, ...continued])].sort(
        (a, b) => a.startLine - b.startLine || b.endLine - a.endLine,
      );
      if (spanning.length > 0) {
        chunk.spanning = spanning.map((s) => ({
          name: s.name,
          kind: s.kind,
          start_line: s.startLine,
          end_line: s.endLine,
        }));
      }
      manifest.chunks.push(chunk);
      manifest.total_tokens += chunk.tokens;
      const base: IndexRecord = { c: id, f: map.path, p: relPath, s: plan.startLine, e: plan.endLine };
      index.push(JSON.stringify(base));
      for (const s of symbols)
        index.push(
          JSON.stringify({
            ...base,
            n: s.name,
            k: s.kind,
            l: s.line,
            x: s.exported,
            ...(s.parent ? { pa: s.parent } : {}),
          }),
        );
      const listed = new Set(starting);
      for (const s of spanning)
        if (!listed.has(s)) index.push(JSON.stringify({ ...base, n: s.name, k: s.kind, l: s.startLine }));
    }
    const entry: ChunkManifest['files'][number] = {
      file: map.path,
      language: map.language,
      lines: lines.length,
      chunks: planned.length,
      imports: map.imports,
    };
    if (map.fallback) entry.fallback = map.fallback;
    manifest.files.push(entry);
  }
  manifest.total_chunks = manifest.chunks.length;
  writeFileAtomic(join(options.outDir, INDEX_FILE), index.join('\n') + (index.length > 0 ? '\n' : ''));
  writeFileAtomic(join(options.outDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

interface PlannedPiece extends PlannedChunk {
  /** 1-based inclusive columns when the chunk is part of one long line. */
  cols?: [number, number];
}

const BREAK_AFTER = new Set([' ', '\t', ';', ',', '}', ')', ']', '>']);

/**
 * Cuts a chunk that is one line longer than `maxChars` (minified code) into pieces of at most
 * `maxChars`, preferring a cut after a space or punctuation in the last fifth of each piece and never
 * inside a surrogate pair.
 */
function cutLongLine(plan: PlannedChunk, lines: readonly string[], maxChars: number): PlannedPiece[] {
  const line = lines[plan.startLine - 1] ?? '';
  if (plan.startLine !== plan.endLine || line.length + 1 <= maxChars) return [plan];
  const pieces: PlannedPiece[] = [];
  const size = Math.max(2, maxChars - 1);
  let from = 0;
  while (from < line.length) {
    let to = Math.min(from + size, line.length);
    if (to < line.length) {
      let cut = to;
      while (cut > from + Math.floor(size * 0.8) && !BREAK_AFTER.has(line[cut - 1]!)) cut--;
      if (BREAK_AFTER.has(line[cut - 1]!)) to = cut;
      const code = line.charCodeAt(to - 1);
      if (code >= 0xd800 && code <= 0xdbff && to - 1 > from) to--;
    }
    pieces.push({ ...plan, cols: [from + 1, to] });
    from = to;
  }
  return pieces;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? flat.slice(0, PREVIEW_CHARS - 1) + '…' : flat;
}
