// Owns `searchManifest`: find chunks by symbol name, kind or file by streaming the side index (or the manifest).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { StrataError, describeError, usageError } from '../../shared/errors.js';
import { INDEX_FILE, type IndexRecord } from './write-chunks.js';
import type { ManifestChunk, ManifestSymbol, SymbolKind } from './types.js';

export interface ManifestHit {
  id: string;
  file: string;
  path: string;
  start_line: number;
  end_line: number;
  /** Matching symbols (all of the chunk's symbols when only the file matched). */
  symbols: ManifestSymbol[];
}

interface Query {
  kinds: string[];
  files: RegExp[];
  terms: RegExp[];
}

function globToRegExp(glob: string, anchored: boolean): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(anchored || glob.includes('*') ? `^${body}$` : body, 'i');
}

/**
 * Pattern syntax: space-separated terms, all must match. `kind:class`, `file:src/auth*` filter;
 * a bare term (substring, or glob with `*`) matches a symbol's name, `Parent.name`, or the chunk's file.
 */
export function parseSearchPattern(pattern: string): Query {
  const query: Query = { kinds: [], files: [], terms: [] };
  for (const term of pattern.trim().split(/\s+/).filter(Boolean)) {
    if (term.startsWith('kind:')) query.kinds.push(term.slice(5).toLowerCase());
    else if (term.startsWith('file:')) query.files.push(globToRegExp(term.slice(5), false));
    else query.terms.push(globToRegExp(term, false));
  }
  if (query.kinds.length + query.files.length + query.terms.length === 0)
    throw new StrataError('INVALID_QUERY', 'empty search pattern');
  return query;
}

function matches(query: Query, r: IndexRecord): boolean {
  if (query.files.some((re) => !re.test(r.f))) return false;
  if (query.kinds.length > 0 && (!r.k || !query.kinds.includes(r.k))) return false;
  const qualified = r.n !== undefined && r.pa ? `${r.pa}.${r.n}` : r.n;
  return query.terms.every((re) => (r.n !== undefined && (re.test(r.n) || re.test(qualified ?? ''))) || re.test(r.f));
}

async function* indexRecords(manifestPath: string): AsyncGenerator<IndexRecord> {
  const indexPath = join(dirname(manifestPath), INDEX_FILE);
  if (existsSync(indexPath)) {
    const lines = createInterface({ input: createReadStream(indexPath, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line.trim()) continue;
      try {
        yield JSON.parse(line) as IndexRecord;
      } catch {
        // A torn or foreign line: skip it.
      }
    }
    return;
  }
  // No side index: stream the manifest's chunks array without loading the whole file.
  const require = createRequire(import.meta.url);
  const { parser } = require('stream-json') as typeof import('stream-json');
  const { pick } = require('stream-json/filters/Pick.js') as typeof import('stream-json/filters/Pick.js');
  const { streamArray } =
    require('stream-json/streamers/StreamArray.js') as typeof import('stream-json/streamers/StreamArray.js');
  const stages = [createReadStream(manifestPath), parser(), pick({ filter: 'chunks' }), streamArray()] as const;
  const output = stages[3];
  // .pipe() does not forward errors: a stage failing must end the iteration with that error.
  for (const stage of stages.slice(0, 3) as NodeJS.EventEmitter[])
    stage.on('error', (error: Error) => output.destroy(error));
  stages[0].pipe(stages[1]).pipe(stages[2]).pipe(output);
  for await (const item of output as AsyncIterable<{ value: ManifestChunk }>) {
    const c = item.value;
    const base: IndexRecord = { c: c.id, f: c.file, p: c.path, s: c.start_line, e: c.end_line };
    yield base;
    for (const s of c.symbols)
      yield { ...base, n: s.name, k: s.kind, l: s.line, x: s.exported, ...(s.parent ? { pa: s.parent } : {}) };
    for (const s of c.spanning ?? []) {
      if (!c.symbols.some((x) => x.name === s.name && x.line === s.start_line))
        yield { ...base, n: s.name, k: s.kind, l: s.start_line };
    }
  }
}

/** The manifest's records; a file that is not a chunk manifest is a usage error naming it. */
async function* guardRecords(manifestPath: string): AsyncGenerator<IndexRecord> {
  if (!statSync(manifestPath).isFile()) throw usageError(`--manifest ${manifestPath} is not a file`);
  try {
    for await (const r of indexRecords(manifestPath)) {
      if (typeof r?.c !== 'string' || typeof r.f !== 'string') throw new Error('its records have no chunk id or file');
      yield r;
    }
  } catch (error) {
    throw usageError(
      `${manifestPath} is not a chunk manifest written by \`strata map chunk\` ` +
        `(${describeError(error).split('\n')[0]})`,
    );
  }
}

/** The spec's `search_manifest(pattern)`: chunks whose symbols (or file) match, in manifest order. */
export async function searchManifest(pattern: string, manifestPath: string): Promise<ManifestHit[]> {
  if (!existsSync(manifestPath))
    throw new StrataError('NOT_FOUND', `no manifest at ${manifestPath} (run \`strata map chunk\` first)`);
  if (!statSync(manifestPath).isFile())
    throw new StrataError('USAGE', `${manifestPath} is not a chunk manifest (not a regular file)`);
  const query = parseSearchPattern(pattern);
  const fileOnly = query.kinds.length === 0 && query.terms.length === 0;
  const hits = new Map<string, ManifestHit>();
  const chunkSymbols = new Map<string, ManifestSymbol[]>();
  for await (const r of guardRecords(manifestPath)) {
    const symbol: ManifestSymbol | undefined =
      r.n === undefined
        ? undefined
        : {
            name: r.n,
            kind: (r.k ?? 'variable') as SymbolKind,
            line: r.l ?? r.s,
            exported: r.x ?? false,
            ...(r.pa ? { parent: r.pa } : {}),
          };
    if (symbol) {
      const list = chunkSymbols.get(r.c) ?? [];
      list.push(symbol);
      chunkSymbols.set(r.c, list);
    }
    const isChunkRecord = r.n === undefined;
    if (isChunkRecord && !fileOnly && !query.terms.some((re) => re.test(r.f))) continue;
    if (isChunkRecord && query.kinds.length > 0) continue;
    if (!matches(query, r)) continue;
    let hit = hits.get(r.c);
    if (!hit) {
      hit = { id: r.c, file: r.f, path: r.p, start_line: r.s, end_line: r.e, symbols: [] };
      hits.set(r.c, hit);
    }
    if (symbol) hit.symbols.push(symbol);
  }
  // Chunks found through their file alone list every symbol they hold.
  for (const hit of hits.values()) if (hit.symbols.length === 0) hit.symbols = chunkSymbols.get(hit.id) ?? [];
  return [...hits.values()];
}
