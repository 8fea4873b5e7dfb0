// Owns mapping many files: read, consult the parse cache, analyze what changed, and count the parses done.
import { readFileSync } from 'node:fs';
import { analyzeFile, isParseable, DEFAULT_PARSE_TIMEOUT_MS, DEFAULT_MAX_FILE_BYTES } from './analyze-file.js';
import { cacheKey, openParseCache, type ParseCache } from './parse-cache.js';
import { languageForPath } from './language-table.js';
import { walkFiles, type FoundFile } from './walk-files.js';
import type { FileMap } from './types.js';

export interface CodeMapperOptions {
  /** SQLite cache file (default: <dataDir>/codemap-cache.db). */
  cachePath?: string;
  /** An open cache to use instead, or `null` to disable caching. */
  cache?: ParseCache | null;
  timeoutMs?: number;
  maxBytes?: number;
  readFile?: (absolutePath: string) => Buffer;
}

export interface CodeMapperStats {
  files: number;
  /** Files run through an extractor (tree-sitter or Markdown) during this mapper's life. */
  parses: number;
  cacheHits: number;
}

export interface CodeMapper {
  readonly stats: CodeMapperStats;
  /** What the walks noted: a named folder mapped despite its .gitignore, or one that gave no file. */
  readonly notes: string[];
  mapFile(file: FoundFile): Promise<FileMap>;
  mapPaths(paths: string[], cwd?: string): Promise<FileMap[]>;
  close(): void;
}

interface CachedValue extends Omit<FileMap, 'path'> {
  timeoutMs?: number;
}

export function createCodeMapper(options: CodeMapperOptions = {}): CodeMapper {
  const ownsCache = options.cache === undefined;
  const cache = options.cache === undefined ? openParseCache(options.cachePath) : options.cache;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const read = options.readFile ?? ((p: string) => readFileSync(p));
  const stats: CodeMapperStats = { files: 0, parses: 0, cacheHits: 0 };
  const notes: string[] = [];

  async function mapFile(file: FoundFile): Promise<FileMap> {
    stats.files++;
    const bytes = read(file.absolute);
    const analyzeOptions = { timeoutMs, maxBytes };
    if (!isParseable(file.display, bytes, analyzeOptions)) return analyzeFile(file.display, bytes, analyzeOptions);
    const key = cacheKey(languageForPath(file.display), bytes);
    const cached = cache?.get(key) as CachedValue | undefined;
    const stale = cached?.fallback === 'timeout' && (cached.timeoutMs ?? 0) < timeoutMs;
    if (cached && !stale) {
      stats.cacheHits++;
      const { timeoutMs: _ignored, ...rest } = cached;
      return { ...rest, path: file.display };
    }
    stats.parses++;
    const map = await analyzeFile(file.display, bytes, analyzeOptions);
    if (cache) {
      const { path: _path, ...value } = map;
      cache.put(key, map.fallback === 'timeout' ? { ...value, timeoutMs } : value);
    }
    return map;
  }

  return {
    stats,
    notes,
    mapFile,
    async mapPaths(paths, cwd) {
      const maps: FileMap[] = [];
      for (const file of walkFiles(paths, cwd, notes)) maps.push(await mapFile(file));
      return maps;
    },
    close() {
      if (ownsCache) cache?.close();
    },
  };
}
