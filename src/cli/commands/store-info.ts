// Owns `strata sources`, `strata sessions` and `strata stats`: what the store holds and where it came from.
import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { listSources } from '../../core/sessions/list-sources.js';
import { listSessions, storeStats } from '../../core/sessions/list-sessions.js';
import { ADAPTERS } from '../../sources/registry.js';
import { parseTimeSpec } from '../../shared/time.js';
import { tildify } from '../../shared/paths.js';
import { formatTable, printJson, printLine, type CliIo } from '../io.js';
import { openStoreForRead } from '../store-access.js';
import { parseAgentList, parsePositiveInt } from './options.js';

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
          printLine(io.stdout, `${r.displayName} (${r.agent}): ${r.files} files, ${r.sessions} sessions, ${r.messages ?? 0} messages, last ingest ${r.lastIngest ?? 'never'}`);
          const statuses = Object.entries(r.filesByStatus).filter(([s]) => s !== 'active');
          if (statuses.length) printLine(io.stdout, `  files by status: ${statuses.map(([s, n]) => `${s} ${n}`).join(', ')}`);
          for (const root of r.roots) printLine(io.stdout, `  ${root.exists ? 'found  ' : 'absent '} ${tildify(root.path, io.env)}`);
        }
      } finally {
        store.close();
      }
    });

  program
    .command('sessions')
    .description('list sessions, newest first')
    .option('--project <dir>', 'only sessions whose project directory contains this text')
    .option('--agent <list>', 'only these agents, comma-separated')
    .option('--since <time>', 'only sessions active since (30m, 2h, 7d, 1w or an ISO date)')
    .option('--limit <n>', 'at most n sessions')
    .option('--json', 'print JSON on stdout')
    .addHelpText('after', '\nExamples:\n  strata sessions --limit 20\n  strata sessions --project myapp --since 7d\n  strata sessions --agent codex --json')
    .action((opts: { project?: string; agent?: string; since?: string; limit?: string; json?: boolean }) => {
      const agents = parseAgentList(opts.agent);
      const filter = {
        ...(opts.project ? { project: opts.project } : {}),
        ...(agents ? { agent: agents } : {}),
        ...(opts.since ? { since: parseTimeSpec(opts.since) } : {}),
        ...(opts.limit ? { limit: parsePositiveInt(opts.limit, '--limit') } : {}),
      };
      const store = openStoreForRead(io);
      try {
        const sessions = listSessions(store.db, filter);
        if (opts.json) return printJson(io, sessions);
        const rows = sessions.map((s) => [
          s.id.slice(0, 12),
          s.agent,
          s.startedAt ? s.startedAt.slice(0, 16).replace('T', ' ') : '',
          String(s.messages),
          s.project ? tildify(s.project, io.env) : '',
          (s.relation ? `[${s.relation}] ` : '') + (s.archived ? '[archived] ' : '') + (s.title ?? '').replace(/\s+/g, ' ').slice(0, 70),
        ]);
        if (rows.length === 0) return printLine(io.stderr, 'no sessions (run `strata ingest` first)');
        printLine(io.stdout, formatTable(rows, ['ID', 'AGENT', 'STARTED', 'MSGS', 'PROJECT', 'TITLE']));
      } finally {
        store.close();
      }
    });

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
        printLine(io.stdout, `store: ${tildify(stats.path, io.env)} (${(stats.bytes / 1e6).toFixed(1)} MB, schema v${stats.schemaVersion})`);
        printLine(io.stdout, `sources: ${stats.sources} (${stats.sourcesMissing} gone)  sessions: ${stats.sessions} (${stats.archivedSessions} archived)`);
        printLine(io.stdout, `messages: ${stats.messages}  prompts: ${stats.prompts}  blocks: ${stats.blocks}  tool calls: ${stats.toolCalls}`);
        printLine(io.stdout, `tokens: input ${stats.tokens.input}, output ${stats.tokens.output}, cache read ${stats.tokens.cacheRead}, cache write ${stats.tokens.cacheWrite}`);
        for (const a of stats.byAgent) printLine(io.stdout, `  ${a.agent}: ${a.sessions} sessions, ${a.messages} messages, ${a.first?.slice(0, 10) ?? '?'} → ${a.last?.slice(0, 10) ?? '?'}`);
      } finally {
        store.close();
      }
    });
}
