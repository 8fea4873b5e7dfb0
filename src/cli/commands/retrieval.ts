// Owns `strata index` (alias `strata sessions`), `strata search`, `strata read` and `strata skill`: thin
// shells over src/core/retrieval that parse flags, open the store and print text or JSON.
import type { Command } from 'commander';
import type { ListingFilter } from '../../core/retrieval/session-listing.js';
import { parseTimeSpec } from '../../shared/time.js';
import { homeDir } from '../../shared/paths.js';
import type { Writable } from 'node:stream';
import type { Store } from '../../store/db.js';
import { printJson, printLine, type CliIo } from '../io.js';
import { parseAgentList, parsePositiveInt } from './options.js';
import { registerReadCommand, registerSearchCommand, registerSkillCommand } from './retrieval-commands.js';

interface IndexOptions {
  project?: string;
  agent?: string;
  since?: string;
  until?: string;
  limit?: string;
  all?: boolean;
  json?: boolean;
  remote?: string;
  machine?: string;
  user?: string;
}

const INDEX_EXAMPLES = `
Examples:
  strata index                         every session, newest first, with statistics
  strata index --limit 20              the 20 newest sessions
  strata index --project myapp --since 7d
  strata index --agent codex,claude-code --until 2025-11-01
  strata index --all --json            include subagent sessions as their own rows; JSON on stdout
Columns: MSGS messages (incl. subagents), USER human prompts, BASH shell calls, FETCH/SEARCH web fetches
and searches, +LINES/-LINES from edit/write/patch tool inputs, FILES files touched, COMMITS git commits,
LOCATIONS where > 30% of the work happened. Zero values are blank; a column blank in every row shown is
left out. \`strata sessions\` is the same command.`;

/** Writes lines in blocks of a few hundred: no single multi-megabyte string for 10,000 sessions. */
function writeLines(out: Writable, lines: string[], block = 512): void {
  for (let i = 0; i < lines.length; i += block) out.write(lines.slice(i, i + block).join('\n') + '\n');
}

export function registerRetrievalCommands(program: Command, io: CliIo): void {
  program
    .command('index')
    .alias('sessions')
    .description('list sessions newest first with mechanical statistics (alias: sessions)')
    .option('--project <dir>', 'only this project: path segments (app, src/app), a folder or ~/app')
    .option('--agent <list>', 'only these agents, comma-separated')
    .option('--since <time>', 'only sessions active since (30m, 2h, 7d, 1w or an ISO date)')
    .option('--until <time>', 'only sessions started before (30m, 2h, 7d, 1w or an ISO date)')
    .option('--limit <n>', 'at most n sessions')
    .option('--all', 'also list subagent sessions as their own rows')
    .option('--json', 'print JSON on stdout')
    .option('--remote <name>', 'list the sessions of a team store on PostgreSQL (see `strata remote`)')
    .option('--machine <name>', 'with --remote: only sessions pushed from this machine')
    .option('--user <name>', 'with --remote: only sessions of this user')
    .addHelpText('after', INDEX_EXAMPLES)
    .action(async (opts: IndexOptions) => {
      const agents = parseAgentList(opts.agent);
      const filter: ListingFilter = {
        ...(opts.project ? { project: opts.project } : {}),
        ...(agents ? { agent: agents } : {}),
        ...(opts.since ? { since: parseTimeSpec(opts.since) } : {}),
        ...(opts.until ? { until: parseTimeSpec(opts.until) } : {}),
        ...(opts.limit !== undefined ? { limit: parsePositiveInt(opts.limit, '--limit') } : {}),
        ...(opts.all ? { all: true } : {}),
      };
      if (opts.remote) {
        const { runRemoteIndex } = await import('./remote-search.js');
        return runRemoteIndex(
          io,
          opts.remote,
          {
            ...filter,
            ...(opts.machine ? { machine: opts.machine } : {}),
            ...(opts.user ? { user: opts.user } : {}),
          },
          Boolean(opts.json),
        );
      }
      // Loaded here, not at start-up: each retrieval command pays only for its own modules.
      const [{ listSessions }, { listingLines }, { openStoreForRead }] = await Promise.all([
        import('../../core/retrieval/session-listing.js'),
        import('../../core/retrieval/format-listing.js'),
        import('../store-access.js'),
      ]);
      const store = openStoreForRead(io);
      try {
        if (opts.json) return printJson(io, listSessions(store.db, filter, homeDir(io.env)));
        const lines = listingLines(store.db, filter, homeDir(io.env));
        if (lines.length === 0) return printLine(io.stderr, noSessionsLine(store.db, opts.project));
        writeLines(io.stdout, lines);
      } finally {
        store.close();
      }
    });
  registerSearchCommand(program, io);
  registerReadCommand(program, io);
  registerSkillCommand(program, io);
}

/** Why a listing is empty: nothing stored yet, or nothing stored matches the filters. */
function noSessionsLine(db: Store['db'], project: string | undefined): string {
  if (!db.prepare('SELECT 1 FROM sessions LIMIT 1').get()) return 'no sessions (run `strata ingest` first)';
  return project ? `no sessions match --project ${project}` : 'no sessions match these filters';
}
