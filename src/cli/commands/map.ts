// Owns `strata map`: render token-budgeted code maps, chunk files along symbol boundaries, view symbols and
// search chunk manifests. A thin shell over src/core/codemap.
import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { StrataError, usageError } from '../../shared/errors.js';
import { dataDir } from '../../shared/paths.js';
import { sha1 } from '../../shared/hash.js';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import {
  createCodeMapper,
  isDetailLevel,
  renderView,
  renderWithinBudget,
  searchManifest,
  writeChunks,
  DEFAULT_MAX_CHARS,
  MANIFEST_FILE,
  DETAIL_LEVELS,
  type CodeMapper,
  type DetailLevel,
  type FileMap,
} from '../../core/codemap/index.js';
import { formatTable, printJson, printLine, type CliIo } from '../io.js';
import { positiveInt } from './options.js';

interface MapperFlags {
  cache?: string | false;
  timeout?: number;
}

function parseLevel(value: string): DetailLevel {
  if (!isDetailLevel(value)) throw usageError(`--level must be one of ${DETAIL_LEVELS.join(', ')}, got "${value}"`);
  return value;
}

function withMapperOptions(cmd: Command): Command {
  return cmd
    .option('--cache <file>', 'parse cache database (default: <data dir>/codemap-cache.db)')
    .option('--no-cache', 'parse every file, without reading or writing the cache')
    .option(
      '--timeout <ms>',
      'per-file parse timeout; slower files are shown as outlines',
      positiveInt('--timeout'),
      2000,
    );
}

function openMapper(io: CliIo, flags: MapperFlags): CodeMapper {
  if (flags.cache === false) return createCodeMapper({ cache: null, timeoutMs: flags.timeout });
  const cachePath = flags.cache ? resolve(io.cwd, flags.cache) : join(dataDir(io.env), 'codemap-cache.db');
  return createCodeMapper({ cachePath, timeoutMs: flags.timeout });
}

async function mapAll(io: CliIo, paths: string[], flags: MapperFlags, quiet: boolean): Promise<FileMap[]> {
  const mapper = openMapper(io, flags);
  const started = performance.now();
  try {
    const maps = await mapper.mapPaths(paths.length > 0 ? paths : ['.'], io.cwd);
    const { files, parses, cacheHits } = mapper.stats;
    // Why a named folder was mapped despite .gitignore, or gave nothing: said even with --json (stderr).
    for (const note of mapper.notes) io.stderr.write(`strata: ${note}\n`);
    if (!quiet)
      io.stderr.write(
        `strata: mapped ${files} files (${parses} parsed, ${cacheHits} from cache) in ` +
          `${Math.round(performance.now() - started)} ms\n`,
      );
    return maps;
  } finally {
    mapper.close();
  }
}

function sourceReader(io: CliIo): (map: FileMap) => string {
  return (map) => readFileSync(resolve(io.cwd, map.path), 'utf8');
}

function registerRender(map: Command, io: CliIo): void {
  withMapperOptions(map.command('render'))
    .description('print a code map of files/folders that fits a token budget, at the richest detail level that fits')
    .argument('[paths...]', 'files or folders (default: the current folder)')
    .option('--budget <tokens>', 'never print more than this many tokens', positiveInt('--budget'), 8000)
    .option('--level <level>', `force a detail level: ${DETAIL_LEVELS.join(', ')}`, parseLevel)
    .option('--json', 'print the structured map (symbols per file) and the rendering as JSON')
    .addHelpText(
      'after',
      `
Examples:
  strata map render src --budget 2000
  strata map render src/core lib/util.py --level compact
  strata map render --budget 500 --json
Levels: outline (paths and line ranges), minimal (symbol names), compact (signatures),
standard (signatures + first sentence of doc comments), full (signatures, docs and bodies).
Files are ranked by how central they are (PageRank over which files use the names others
define, plus imports; public surface and entry points count; tests, vendored, generated, docs
and dot-folder files come last) and shown most central first. Without --level, detail goes to
central files first, then outlines of the rest (a large file first lists only its main exports,
the names other files use most); files that do not fit are omitted, the least central first,
and the output says how many.
Tokens are counted with strata's tokenizer (o200k_base). Skips node_modules, .git, dist, build,
.gitignore'd and binary files, except in a folder named on the command line (stderr says so).
Unsupported languages are shown as outlines.`,
    )
    .action(async (paths: string[], opts: MapperFlags & { budget: number; level?: DetailLevel; json?: boolean }) => {
      const maps = await mapAll(io, paths, opts, Boolean(opts.json));
      const result = renderWithinBudget(
        maps,
        { budget: opts.budget, ...(opts.level ? { level: opts.level } : {}) },
        { readSource: sourceReader(io) },
      );
      if (opts.json) {
        const byPath = new Map(maps.map((m) => [m.path, m]));
        printJson(io, {
          budget: result.budget,
          tokens: result.tokens,
          level: result.level,
          omitted: result.omitted,
          omitted_paths: result.omittedPaths,
          // Most central first, the order the text shows them in.
          files: result.files.map((f) => ({
            ...byPath.get(f.path)!,
            level: f.level,
            ...(f.keySymbols === undefined ? {} : { key_symbols: f.keySymbols }),
            tokens: f.tokens,
          })),
          text: result.text,
        });
        return;
      }
      io.stdout.write(result.text);
      if (result.omitted > 0)
        io.stderr.write(`strata: ${result.omitted} files omitted to fit ${result.budget} tokens (raise --budget)\n`);
    });
}

function lastManifestPointer(io: CliIo): string {
  return join(dataDir(io.env), 'chunks', 'last-manifest');
}

function registerChunk(map: Command, io: CliIo): void {
  withMapperOptions(map.command('chunk'))
    .description('cut a file or folder into chunks at symbol boundaries, with a manifest of the symbols in each chunk')
    .argument('<path>', 'file or folder to chunk')
    .option(
      '--max-chars <n>',
      'largest chunk in characters (a symbol larger than this is split at inner boundaries)',
      positiveInt('--max-chars'),
      DEFAULT_MAX_CHARS,
    )
    .option('--out <dir>', 'write chunks and manifest.json here (default: <data dir>/chunks/<name>-<hash>)')
    .option('--json', 'print a summary as JSON')
    .addHelpText(
      'after',
      `
Examples:
  strata map chunk src/store/store.ts --max-chars 4000
  strata map chunk src --out /tmp/src-chunks --json
  strata map search AuthService --manifest /tmp/src-chunks/manifest.json
Writes <out>/chunks/chunk_<n>.txt (exact line ranges of the source), <out>/manifest.json
(per file: its imports, once; per chunk: id, file, start_line, end_line, symbols, the symbols it
continues, preview, tokens) and a side index used by \`strata map search\`. A line longer than
--max-chars (minified code) is cut into pieces with start_col/end_col. All writes are atomic.`,
    )
    .action(async (path: string, opts: MapperFlags & { maxChars: number; out?: string; json?: boolean }) => {
      const absolute = resolve(io.cwd, path);
      if (!existsSync(absolute)) throw new StrataError('NOT_FOUND', `no such file or folder: ${path}`);
      const outDir = opts.out
        ? resolve(io.cwd, opts.out)
        : join(dataDir(io.env), 'chunks', `${basename(absolute) || 'root'}-${sha1(absolute).slice(0, 8)}`);
      const maps = await mapAll(io, [path], opts, Boolean(opts.json));
      const manifest = writeChunks(
        maps,
        { outDir, maxChars: opts.maxChars, source: path },
        { readSource: sourceReader(io) },
      );
      const manifestPath = join(outDir, MANIFEST_FILE);
      writeFileAtomic(lastManifestPointer(io), manifestPath + '\n');
      if (opts.json) {
        printJson(io, {
          out_dir: outDir,
          manifest: manifestPath,
          files: manifest.files.length,
          chunks: manifest.total_chunks,
          tokens: manifest.total_tokens,
        });
        return;
      }
      const rows = manifest.chunks.map((c) => [
        c.id,
        `${c.file}:${c.start_line}-${c.end_line}`,
        `${c.tokens} tok`,
        c.symbols
          .filter((s) => !s.parent)
          .map((s) => s.name)
          .slice(0, 6)
          .join(', ') + (c.spanning ? ` (part of ${c.spanning.map((s) => s.name).join(' > ')})` : ''),
      ]);
      if (rows.length > 0) printLine(io.stdout, formatTable(rows));
      printLine(
        io.stdout,
        `${manifest.total_chunks} chunks, ${manifest.total_tokens} tokens; manifest: ${manifestPath}`,
      );
    });
}

function registerView(map: Command, io: CliIo): void {
  withMapperOptions(map.command('view'))
    .description('print the ground-truth rendering of named symbols (name, Parent.name or Parent::name)')
    .argument(
      '<args...>',
      'symbol names, then optionally files/folders to look in (arguments that exist on disk are paths)',
    )
    .option('--level <level>', `detail level: ${DETAIL_LEVELS.join(', ')}`, parseLevel, 'compact' as DetailLevel)
    .option(
      '--path <path>',
      'file or folder to look in (repeatable; default: the current folder)',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--json', 'print the matches as JSON')
    .addHelpText(
      'after',
      `
Examples:
  strata map view AuthService --level compact src
  strata map view AuthService.login --level full --path src/auth
  strata map view parseConfig loadConfig --level standard --json`,
    )
    .action(async (args: string[], opts: MapperFlags & { level: DetailLevel; path: string[]; json?: boolean }) => {
      const paths = [...opts.path];
      const names: string[] = [];
      for (const arg of args) (opts.path.length === 0 && existsSync(resolve(io.cwd, arg)) ? paths : names).push(arg);
      if (names.length === 0) throw usageError('name at least one symbol to view');
      const maps = await mapAll(io, paths, opts, true);
      const view = renderView(names, opts.level, maps, sourceReader(io));
      if (view.found.length === 0)
        throw new StrataError(
          'NOT_FOUND',
          `no symbol named ${names.join(', ')} (try \`strata map render --level minimal\`)`,
        );
      for (const name of view.missing) io.stderr.write(`strata: no symbol named ${name}\n`);
      if (opts.json) printJson(io, { level: opts.level, found: view.found, missing: view.missing, text: view.text });
      else io.stdout.write(view.text);
    });
}

function registerSearch(map: Command, io: CliIo): void {
  map
    .command('search')
    .description('find chunks in a chunk manifest by symbol name, kind or file, without loading the whole manifest')
    .argument(
      '<pattern>',
      'terms (all must match): NAME or glob (matches name, Parent.name or file), kind:KIND, file:GLOB',
    )
    .option('--manifest <file>', 'manifest.json to search (default: the last one `strata map chunk` wrote)')
    .option('--json', 'print the matching chunks as JSON')
    .addHelpText(
      'after',
      `
Examples:
  strata map search processPayment
  strata map search "kind:class file:src/auth*"
  strata map search "Auth* kind:method" --manifest /tmp/src-chunks/manifest.json --json`,
    )
    .action(async (pattern: string, opts: { manifest?: string; json?: boolean }) => {
      let manifestPath = opts.manifest ? resolve(io.cwd, opts.manifest) : undefined;
      if (!manifestPath) {
        const pointer = lastManifestPointer(io);
        if (!existsSync(pointer))
          throw usageError('no manifest given and none written yet: run `strata map chunk PATH` or pass --manifest');
        manifestPath = readFileSync(pointer, 'utf8').trim();
      }
      const hits = await searchManifest(pattern, manifestPath);
      if (opts.json) {
        printJson(io, {
          manifest: manifestPath,
          hits: hits.map((h) => ({ ...h, path: join(dirname(manifestPath), h.path) })),
        });
        return;
      }
      if (hits.length === 0) {
        io.stderr.write(`strata: no chunk matches "${pattern}"\n`);
        return;
      }
      const rows = hits.map((h) => [
        h.id,
        `${h.file}:${h.start_line}-${h.end_line}`,
        h.symbols.map((s) => `${s.kind} ${s.parent ? s.parent + '.' : ''}${s.name}:${s.line}`).join(', '),
      ]);
      printLine(io.stdout, formatTable(rows));
    });
}

export function registerMapCommand(program: Command, io: CliIo): void {
  const map = program
    .command('map')
    .description('code maps: symbols per file (tree-sitter), token-budgeted renderings, symbol-aware chunks')
    .addHelpText(
      'after',
      `
Examples:
  strata map render src --budget 4000
  strata map chunk src --max-chars 8000 --out /tmp/chunks
  strata map search "kind:class Auth*"
  strata map view AuthService.login --level full src`,
    );
  registerRender(map, io);
  registerChunk(map, io);
  registerView(map, io);
  registerSearch(map, io);
}
