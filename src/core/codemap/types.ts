// Owns the data shapes of code maps: symbols, per-file maps, detail levels and chunk manifests.

export type SymbolKind =
  | 'function'
  | 'class'
  | 'method'
  | 'constructor'
  | 'property'
  | 'interface'
  | 'type'
  | 'enum'
  | 'struct'
  | 'union'
  | 'trait'
  | 'impl'
  | 'module'
  | 'namespace'
  | 'variable'
  | 'constant'
  | 'macro'
  | 'record'
  | 'heading'
  | 'code-block';

export interface CodeSymbol {
  name: string;
  kind: SymbolKind;
  /** One-line declaration text without the body, whitespace collapsed. */
  signature: string;
  /** 1-based, inclusive; includes leading decorators/attributes, excludes doc comments. */
  startLine: number;
  endLine: number;
  exported: boolean;
  /** Name of the enclosing symbol (class, impl target, namespace, outer function, heading). */
  parent?: string;
  /** Doc comment text with comment markers removed. */
  doc?: string;
  /** 1-based first line of the doc comment, when there is one above the symbol. */
  docStartLine?: number;
}

/** Why a file is shown as an outline only. */
export type FallbackReason = 'unsupported' | 'timeout' | 'parse-error' | 'binary' | 'too-large';

export interface FileMap {
  /** Path as given to the mapper (relative to the root it was found under, '/'-separated). */
  path: string;
  language: string | null;
  lines: number;
  bytes: number;
  /** sha256 of the content (plain, not the cache key). */
  hash: string;
  symbols: CodeSymbol[];
  imports: string[];
  fallback?: FallbackReason;
}

export const DETAIL_LEVELS = ['outline', 'minimal', 'compact', 'standard', 'full'] as const;
export type DetailLevel = (typeof DETAIL_LEVELS)[number];

export function levelRank(level: DetailLevel): number {
  return DETAIL_LEVELS.indexOf(level);
}

export function isDetailLevel(value: string): value is DetailLevel {
  return (DETAIL_LEVELS as readonly string[]).includes(value);
}

export interface ManifestSymbol {
  name: string;
  kind: SymbolKind;
  line: number;
  exported: boolean;
  parent?: string;
}

export interface ManifestChunk {
  id: string;
  file: string;
  /** Chunk text file, relative to the manifest's folder. */
  path: string;
  start_line: number;
  end_line: number;
  chars: number;
  tokens: number;
  /** Set when one line longer than a chunk is cut: the 1-based columns (UTF-16 units) of the line held. */
  start_col?: number;
  end_col?: number;
  preview: string;
  symbols: ManifestSymbol[];
  /** Symbols larger than a chunk that this chunk holds only part of. */
  spanning?: { name: string; kind: SymbolKind; start_line: number; end_line: number }[];
}

export interface ChunkManifest {
  version: 1;
  source: string;
  max_chars: number;
  created_at: string;
  total_chunks: number;
  total_tokens: number;
  /** Per file; its imports are listed here once rather than on every chunk. */
  files: {
    file: string;
    language: string | null;
    lines: number;
    chunks: number;
    imports: string[];
    fallback?: FallbackReason;
  }[];
  chunks: ManifestChunk[];
}
