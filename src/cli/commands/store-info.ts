// Owns `strata sources` and `strata stats` (`strata sessions` is an alias of `strata index`): what the store holds
// and where it came from.
import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { listSources } from '../../core/sessions/list-sources.js';
import { storeStats } from '../../core/sessions/store-stats.js';
import { ADAPTERS } from '../../sources/registry.js';
import { tildify } from '../../shared/paths.js';
import { printJson, printLine, type CliIo } from '../io.js';
import { openStoreForRead } from '../store-access.js';

export function registerStoreInfoCommands(program: Command, io: CliIo): void {
  program
    .command('sources')
    .description("list each agent's default locations and what the store holds from them")
    .option('--json', 'print JSON on stdout')
    .addHelpText('after', '\nExamples:\n  strata sources\n  strata sources --json')
    .action((opts: { json?: boolean }) => {
      const store = openStoreForRead(io);
      try {
        const rows = listSources(store.db, ADAPTERS, io.env);
        if (opts.json) return printJson(io, rows);
        for (const r of rows) {
          printLine(
            io.stdout,
            `${r.displayName} (${r.agent}): ${r.files} files, ${r.sessions} sessions, ${r.messages ?? 0} messages, ` +
              `last ingest ${r.lastIngest ?? 'never'}`,
          );
          const statuses = Object.entries(r.filesByStatus).filter(([s]) => s !== 'active');
          if (statuses.length)
            printLine(io.stdout, `  files by status: ${statuses.map(([s, n]) => `${s} ${n}`).join(', ')}`);
          printLine(io.stdout, `  reads: ${r.formats.map((f) => f.replaceAll('`', '')).join('; ')}`);
          for (const root of r.roots.filter((x) => x.exists))
            printLine(io.stdout, `  found  ${String(root.files).padStart(6)} files  ${tildify(root.path, io.env)}`);
          const absent = r.roots.filter((x) => !x.exists);
          // Adapters with many default places (one per editor) list the absent ones in --json only.
          if (absent.length > 3)
            printLine(io.stdout, `  absent  ${absent.length} default locations (listed by --json)`);
          else for (const root of absent) printLine(io.stdout, `  absent               ${tildify(root.path, io.env)}`);
        }
      } finally {
        store.close();
      }
    });

  // `strata sessions` is an alias of `strata index` (src/cli/commands/retrieval.ts): one listing implementation.

  program
    .command('stats')
    .description('totals of the store: sources, sessions, messages, tokens, per agent')
    .option('--json', 'print JSON on stdout')
    .addHelpText('after', '\nExamples:\n  strata stats\n  strata stats --json')
    .action((opts: { json?: boolean }) => {
      const store = openStoreForRead(io);
      try {
        const stats = storeStats(store.db, store.path, store.schemaVersion, statSync(store.path).size);
        if (opts.json) return printJson(io, stats);
        printLine(
          io.stdout,
          `store: ${tildify(stats.path, io.env)} (${(stats.bytes / 1e6).toFixed(1)} MB, schema ` +
            `v${stats.schemaVersion})`,
        );
        printLine(
          io.stdout,
          `sources: ${stats.sources} (${stats.sourcesMissing} gone)  sessions: ` +
            `${stats.sessions} (${stats.archivedSessions} archived)`,
        );
        printLine(
          io.stdout,
          `messages: ${stats.messages}  prompts: ${stats.prompts}  blocks: ${stats.blocks}  tool calls: ` +
            `${stats.toolCalls}`,
        );
        printLine(
          io.stdout,
          `tokens: input ${stats.tokens.input}, output ${stats.tokens.output}, cache read ` +
            `${stats.tokens.cacheRead}, cache write ${stats.tokens.cacheWrite}`,
        );
        for (const a of stats.byAgent)
          printLine(
            io.stdout,
            `  ${a.agent}: ${a.sessions} sessions, ${a.messages} messages, ` +
              `${a.first?.slice(0, 10) ?? '?'} → ${a.last?.slice(0, 10) ?? '?'}`,
          );
      } finally {
        store.close();
      }
    });
}
