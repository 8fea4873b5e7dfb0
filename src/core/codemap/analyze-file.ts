// Owns turning one file's bytes into a FileMap: pick the extractor, parse with a timeout, fall back to an outline.
import { sha256 } from '../../shared/hash.js';
import { hasBinaryExtension, languageForPath, looksBinary, type LanguageId } from './language-table.js';
import { ParseTimeoutError, withSyntaxTree, type ParsedLanguage } from './tree-sitter-runtime.js';
import type { Extraction, Extractor } from './languages/common.js';
import { extractTypeScript } from './languages/typescript.js';
import { extractPython } from './languages/python.js';
import { extractRust } from './languages/rust.js';
import { extractGo } from './languages/go.js';
import { extractJava } from './languages/java.js';
import { extractCFamily } from './languages/c-family.js';
import { extractMarkdown } from './languages/markdown.js';
import type { FallbackReason, FileMap } from './types.js';

export const DEFAULT_PARSE_TIMEOUT_MS = 2000;
export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

const EXTRACTORS: Record<ParsedLanguage, Extractor> = {
  typescript: extractTypeScript,
  tsx: extractTypeScript,
  javascript: extractTypeScript,
  python: extractPython,
  rust: extractRust,
  go: extractGo,
  java: extractJava,
  c: extractCFamily,
  cpp: extractCFamily,
};

export interface AnalyzeOptions {
  /** Per-file tree-sitter timeout in milliseconds (0 = none). */
  timeoutMs?: number;
  /** Files larger than this are outlined without parsing. */
  maxBytes?: number;
  /** Overrides the language detected from the file name. */
  language?: LanguageId | null;
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  const breaks = text.split('\n').length;
  return text.endsWith('\n') ? breaks - 1 : breaks;
}

/** Whether `analyzeFile` would run an extractor for this file (the cacheable case). */
export function isParseable(path: string, bytes: Uint8Array, options: AnalyzeOptions = {}): boolean {
  const language = options.language === undefined ? languageForPath(path) : options.language;
  return (
    !!language &&
    !hasBinaryExtension(path) &&
    bytes.length <= (options.maxBytes ?? DEFAULT_MAX_FILE_BYTES) &&
    !looksBinary(bytes)
  );
}

/**
 * Maps one file. Never throws for content problems: unsupported, binary, huge, crashing or slow parses give an outline.
 */
export async function analyzeFile(path: string, bytes: Uint8Array, options: AnalyzeOptions = {}): Promise<FileMap> {
  const language = options.language === undefined ? languageForPath(path) : options.language;
  const hash = sha256(bytes);
  const outline = (reason: FallbackReason, text?: string): FileMap => ({
    path,
    language,
    lines: text === undefined ? 0 : countLines(text),
    bytes: bytes.length,
    hash,
    symbols: [],
    imports: [],
    fallback: reason,
  });
  if (hasBinaryExtension(path) || looksBinary(bytes)) return outline('binary');
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (!language) return outline('unsupported', text);
  if (bytes.length > (options.maxBytes ?? DEFAULT_MAX_FILE_BYTES)) return outline('too-large', text);
  let extraction: Extraction;
  try {
    if (language === 'markdown') extraction = extractMarkdown(text);
    else {
      const extractor = EXTRACTORS[language];
      extraction = await withSyntaxTree(language, text, options.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS, (root) =>
        extractor(root, text),
      );
    }
  } catch (error) {
    return outline(error instanceof ParseTimeoutError ? 'timeout' : 'parse-error', text);
  }
  return {
    path,
    language,
    lines: countLines(text),
    bytes: bytes.length,
    hash,
    symbols: extraction.symbols,
    imports: extraction.imports,
  };
}
