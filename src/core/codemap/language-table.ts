// Owns which file extensions strata can map and which tree-sitter grammar each one uses.
import { extname, basename } from 'node:path';

export type LanguageId =
  | 'typescript'
  | 'tsx'
  | 'javascript'
  | 'python'
  | 'rust'
  | 'go'
  | 'java'
  | 'c'
  | 'cpp'
  | 'markdown';

const BY_EXTENSION: Record<string, LanguageId> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.rs': 'rust',
  '.go': 'go',
  '.java': 'java',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hpp': 'cpp',
  '.hh': 'cpp',
  '.hxx': 'cpp',
  '.md': 'markdown',
  '.markdown': 'markdown',
};

/** The wasm grammar file name (in tree-sitter-wasms/out) for each parsed language. */
export const GRAMMAR_FILES: Record<Exclude<LanguageId, 'markdown'>, string> = {
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  python: 'tree-sitter-python.wasm',
  rust: 'tree-sitter-rust.wasm',
  go: 'tree-sitter-go.wasm',
  java: 'tree-sitter-java.wasm',
  c: 'tree-sitter-c.wasm',
  cpp: 'tree-sitter-cpp.wasm',
};

/** Language of a file from its name, or null when strata has no symbol extractor for it. */
export function languageForPath(path: string): LanguageId | null {
  const ext = extname(path).toLowerCase();
  if (ext === '.ts' && basename(path).endsWith('.d.ts')) return 'typescript';
  return BY_EXTENSION[ext] ?? null;
}

const BINARY_EXTENSIONS = new Set(
  (
    '.png .jpg .jpeg .gif .bmp .ico .webp .tiff .pdf .zip .gz .tgz .bz2 .xz .7z .rar .tar .jar .war ' +
    '.class .o .a .so .dylib .dll .exe .bin .wasm .node .pyc .woff .woff2 .ttf .otf .eot .mp3 .mp4 ' +
    '.mov .avi .webm .ogg .wav .flac .sqlite .db .psd .dmg .iso'
  ).split(' '),
);

export function hasBinaryExtension(path: string): boolean {
  return BINARY_EXTENSIONS.has(extname(path).toLowerCase());
}

/** True when the bytes look binary (a NUL byte in the first 8 KB). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}
