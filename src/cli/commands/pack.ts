// Owns `strata pack`: build a segment's Markdown context pack and read it back by chunk id,
// full-text search or stats. A thin shell over src/core/context-pack.
import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { usageError } from '../../shared/errors.js';
import {
  chunkLocation,
  getChunksWithinBudget,
  openSegmentContext,
  packStats,
  readPack,
  resolveSegment,
  writeContextPack,
} from '../../core/context-pack/index.js';
import { formatTable, printJson, printLine, type CliIo } from '../io.js';
import { positiveInt } from './options.js';

interface SegmentFlags {
  segment?: string;
  repoRoot?: string;
}

const SEGMENT_HELP = `
Finding the segment (all pack commands): the segment directory is --repo-root (default: the
current directory) joined with --segment (default: "." — the repo root itself is the segment).
Its pack lives in <segment>/_ctx/context_pack.json and <segment>/_ctx/context.db; a subdirectory
that has its own _ctx/ is another segment and is never read.`;

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function segmentOf(io: CliIo, flags: SegmentFlags, output?: string) {
  return {
    repoRoot: resolve(io.cwd, flags.repoRoot ?? '.'),
    segment: flags.segment,
    output: output === undefined ? undefined : resolve(io.cwd, output),
  };
}

function withSegmentOptions(cmd: Command): Command {
  return cmd
    .option('--segment <name>', 'segment directory, relative to --repo-root (default: ".")')
    .option('--repo-root <dir>', 'directory holding the segments (default: current directory)');
}

function registerBuild(pack: Command, io: CliIo): void {
  withSegmentOptions(pack.command('build'))
    .description("chunk the segment's Markdown docs into <segment>/_ctx/context_pack.json and context.db")
    .option('--output <file>', 'write the JSON pack here instead of <segment>/_ctx/context_pack.json')
    .option(
      '--include <glob>',
      'docs to include (repeatable; default "**/*.md"; a glob without "/" matches names at any depth)',
      collect,
      [],
    )
    .option('--exclude <glob>', 'paths to leave out (repeatable)', collect, [])
    .option(
      '--max-chars <n>',
      'longest chunk before the paragraph fallback splits it',
      positiveInt('--max-chars'),
      6000,
    )
    .option('--json', 'print the build summary as JSON')
    .addHelpText(
      'after',
      `
Examples:
  strata pack build --segment debug_terminal
  strata pack build --segment eval --repo-root ~/projects --output /tmp/eval-pack.json
  strata pack build --include "docs/**/*.md" --include "*.mdx" --exclude "drafts/**" --json
Unchanged docs (same SHA-256) are reused from the previous pack; writes are atomic: context.db
is replaced first (still answering the previous pack's ids), then the JSON pack.
_ctx/ is read only for a Trifecta segment's own docs (_ctx/prime_*.md, agent_*.md, session_*.md)
and for --include globs naming _ctx/ (e.g. --include "_ctx/*.md").
Only files under --repo-root are read (symlinks resolved); a segment or _ctx leading outside it,
or a symlinked _ctx, is refused.
${SEGMENT_HELP}`,
    )
    .action(
      (
        opts: SegmentFlags & {
          output?: string;
          include: string[];
          exclude: string[];
          maxChars: number;
          json?: boolean;
        },
      ) => {
        const started = performance.now();
        const result = writeContextPack({
          ...segmentOf(io, opts, opts.output),
          include: opts.include,
          exclude: opts.exclude,
          maxChars: opts.maxChars,
        });
        const durationMs = Math.round(performance.now() - started);
        for (const s of result.skipped) io.stderr.write(`strata: skipped ${s.path}: ${s.reason}\n`);
        const { pack, paths } = result;
        if (opts.json) {
          printJson(io, {
            segment: pack.segment,
            pack_path: paths.packPath,
            db_path: paths.dbPath,
            docs: pack.docs.length,
            chunks: pack.chunks.length,
            digest_entries: pack.digest.length,
            reused_docs: result.reusedDocs,
            chunked_docs: result.chunkedDocs,
            skipped: result.skipped,
            pack_bytes: result.packBytes,
            db_bytes: result.dbBytes,
            duration_ms: durationMs,
            timings: result.timings,
          });
          return;
        }
        printLine(
          io.stdout,
          `segment ${pack.segment}: ${pack.docs.length} docs, ${pack.chunks.length} chunks ` +
            `(${result.reusedDocs.length} docs reused, ${result.chunkedDocs.length} chunked) in ${durationMs} ms`,
        );
        printLine(io.stdout, `pack  ${paths.packPath} (${result.packBytes} bytes)`);
        printLine(io.stdout, `db    ${paths.dbPath} (${result.dbBytes} bytes)`);
      },
    );
}

function registerGet(pack: Command, io: CliIo): void {
  withSegmentOptions(pack.command('get'))
    .description('print chunks by id, in the order given')
    .argument('<ids...>', 'chunk ids from the pack index or search results (e.g. skill:a1b2c3d4e5)')
    .option(
      '--budget <tokens>',
      'stop adding chunks before their total would exceed this many tokens',
      positiveInt('--budget'),
    )
    .option('--json', 'print the chunks as JSON')
    .addHelpText(
      'after',
      `
Examples:
  strata pack get skill:a1b2c3d4e5
  strata pack get skill:a1b2c3d4e5 skill:f6e7d8c9b0 --budget 2000
  strata pack get --segment eval README:0123456789 --json
Tokens are counted with strata's tokenizer (o200k_base). With --budget, chunks are added in order
until the next one would not fit; the budget covers everything printed, each chunk's header line
included (--json returns the same chunks). Chunks left out are named on stderr (and in "omitted").
${SEGMENT_HELP}`,
    )
    .action((ids: string[], opts: SegmentFlags & { budget?: number; json?: boolean }) => {
      const ctx = openSegmentContext(segmentOf(io, opts));
      let result;
      try {
        result = getChunksWithinBudget(ctx, ids, opts.budget);
      } finally {
        ctx.close();
      }
      const { segment, usedTokens: used, included, omitted, printed } = result;
      if (omitted.length > 0) {
        io.stderr.write(
          `strata: budget of ${opts.budget} tokens reached: returned ${included.length} of ${ids.length} chunks ` +
            `(${used} tokens printed); omitted ${omitted.join(', ')}\n`,
        );
      }
      if (opts.json) {
        printJson(io, {
          segment,
          budget: opts.budget ?? null,
          used_tokens: used,
          truncated: omitted.length > 0,
          chunks: included,
          omitted,
        });
        return;
      }
      io.stdout.write(printed);
    });
}

function registerSearch(pack: Command, io: CliIo): void {
  withSegmentOptions(pack.command('search'))
    .description("full-text search over the segment's chunks (bm25, titles weighted above text)")
    .argument(
      '<query...>',
      'plain words (punctuation is fine), or FTS5 syntax: "exact phrase", a OR b, prefix*, title_path:word',
    )
    .option('-k, --limit <n>', 'number of results', positiveInt('-k'), 10)
    .option('--json', 'print results as JSON')
    .addHelpText(
      'after',
      `
Examples:
  strata pack search "git worktree cleanup"
  strata pack search 'title_path:setup OR install*' -k 5
  strata pack search --segment eval "what does --dry-run do?" --json
Plain words must all match; if no chunk has every word, chunks with any of them are shown.
A malformed FTS5 expression is reported as an invalid query (exit code 2).
${SEGMENT_HELP}`,
    )
    .action((words: string[], opts: SegmentFlags & { limit: number; json?: boolean }) => {
      const ctx = openSegmentContext(segmentOf(io, opts));
      let result;
      try {
        result = ctx.searchContext(words.join(' '), opts.limit);
      } finally {
        ctx.close();
      }
      const { paths } = ctx;
      if (opts.json) {
        printJson(io, { segment: paths.name, ...result });
        return;
      }
      if (result.mode === 'any' && result.hits.length > 0)
        io.stderr.write('strata: no chunk has every word; showing chunks with any of them\n');
      if (result.hits.length === 0) io.stderr.write(`strata: no chunks match ${JSON.stringify(result.query)}\n`);
      result.hits.forEach((h, i) => {
        const title = h.title_path.length > 0 ? h.title_path.join(' > ') : '(before first heading)';
        printLine(io.stdout, `${i + 1}. ${h.id}  ${title}  (${chunkLocation(h)}, ~${h.token_est} tokens)`);
        if (h.preview) printLine(io.stdout, `   ${h.preview}`);
      });
    });
}

function registerStats(pack: Command, io: CliIo): void {
  withSegmentOptions(pack.command('stats'))
    .description("show what the segment's pack holds and what loading it costs")
    .option(
      '--pack <file>',
      'JSON pack to read, if it was built with --output (default: <segment>/_ctx/context_pack.json)',
    )
    .option('--json', 'print stats as JSON')
    .addHelpText(
      'after',
      `
Examples:
  strata pack stats
  strata pack stats --segment debug_terminal --repo-root ~/projects --json
${SEGMENT_HELP}`,
    )
    .action((opts: SegmentFlags & { pack?: string; json?: boolean }) => {
      const paths = resolveSegment(segmentOf(io, opts, opts.pack));
      // A FIFO or device given as --pack would block the read for ever.
      const packFile = statSync(paths.packPath, { throwIfNoEntry: false });
      if (packFile && !packFile.isFile()) throw usageError(`${paths.packPath} is not a regular file`);
      const stats = packStats(readPack(paths.packPath), paths);
      if (opts.json) {
        printJson(io, stats);
        return;
      }
      printLine(io.stdout, `segment      ${stats.segment} (${stats.segment_dir})`);
      printLine(
        io.stdout,
        `built        ${stats.created_at} by generator ${stats.generator_version}, schema ` +
          `v${stats.schema_version}, max_chars ${stats.max_chars}`,
      );
      printLine(io.stdout, `docs         ${stats.docs}, chunks ${stats.chunks}, ${stats.total_chars} chars`);
      printLine(
        io.stdout,
        `tokens (est) digest ${stats.digest_token_est}, index ${stats.index_token_est}, all chunks ` +
          `${stats.chunks_token_est}`,
      );
      printLine(
        io.stdout,
        `files        ${stats.pack_path} (${stats.pack_bytes} bytes), ` +
          `${stats.db_path} (${stats.db_bytes ?? 'missing'} bytes)`,
      );
      if (!stats.db_in_sync)
        io.stderr.write(
          'strata: context.db is missing or from another build than the JSON pack; run `strata pack build`\n',
        );
      printLine(io.stdout);
      const rows = stats.per_doc.map((d) => [d.doc, String(d.chunks), String(d.chars), String(d.token_est)]);
      printLine(io.stdout, formatTable(rows, ['DOC', 'CHUNKS', 'CHARS', 'TOKENS']));
    });
}

export function registerPackCommand(program: Command, io: CliIo): void {
  const pack = program
    .command('pack')
    .description('Markdown context packs: a digest and index to load, chunks to fetch by id or search')
    .addHelpText(
      'after',
      `
Examples:
  strata pack build --segment debug_terminal
  strata pack search --segment debug_terminal "sync env"
  strata pack get --segment debug_terminal skill:a1b2c3d4e5 --budget 1500
  strata pack stats --segment debug_terminal
${SEGMENT_HELP}`,
    );
  registerBuild(pack, io);
  registerGet(pack, io);
  registerSearch(pack, io);
  registerStats(pack, io);
}
