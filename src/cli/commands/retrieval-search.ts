// Owns `strata search`: flag parsing over core/retrieval/search.
import type { Command } from 'commander';
import { parseTimeSpec } from '../../shared/time.js';
import { StrataError } from '../../shared/errors.js';
import { homeDir } from '../../shared/paths.js';
import { printJson, printLine, type CliIo } from '../io.js';
import { parseAgentList, parseNonNegativeInt, parsePositiveInt } from './options.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

const SEARCH_EXAMPLES =
  `
Examples:
  strata search sqlite migration           ranked full-text search (BM25), hits grouped by session
  strata search '"connection pool"' OR pgbouncer -docker
  strata search parseSession               identifiers match as prefixes; parts of them by substring
  strata search user-flow                  parts of paths and identifiers match as phrases
  strata search 数据库                     Chinese, Japanese and Korean text without spaces
  strata search -E 'TODO\\(\\w+\\)' -i        regular expression, linear time (scans block text, newest first)
  strata search docker -l                  session ids only;  -c  hit counts per session
  strata search "rate limit" --in user,assistant --after 7d --project myapp
  strata search timeout --in tool:Bash:result -s 1fb5e404 -m 20 -C 30
Each hit cites the session and message number: open it with \`strata read <id> <N>\`.
Noise (wrappers, system reminders, injected context) is not searched unless --in noise; IDE file notices
are, at low weight. Tool results rank at half weight, system text (injected instructions) at a quarter. ` +
  `FTS matching ignores case; -i applies to -E regular expressions. A query matching more than
1,000 blocks ranks the newest 1,000 of them (a last line says so): add words or a filter (--project,
--after, --in, -s) to rank every match; -l and -c always count every match.
A word also finds words it begins (sqlite: sqlite3) and its English forms (install: installation), the
exact form ranked first. A question whose words are in no one block finds sessions holding them in
nearby messages, then sessions holding some of them (marked "partial").
Exit status: 0 when something matched, 1 when nothing did (the reason on stderr), 2 on a bad query.`;

interface SearchFlags {
  regex?: boolean;
  ignoreCase?: boolean;
  context?: string;
  filesWithMatches?: boolean;
  count?: boolean;
  maxCount?: string;
  session?: string;
  in?: string[];
  after?: string;
  before?: string;
  project?: string;
  agent?: string;
  limit?: string;
  json?: boolean;
  remote?: string;
  machine?: string;
  user?: string;
  mode?: string;
}

export function registerSearchCommand(program: Command, io: CliIo): void {
  program
    .command('search')
    .description('search every session: ranked full text (BM25) or -E regular expressions')
    .argument('<query...>', 'words, "phrases", OR, -excluded (or a regular expression with -E)')
    .option(
      '-E, --regex',
      'treat the query as a regular expression (JavaScript syntax run in linear time: no backreferences or lookahead)',
    )
    .option('-i, --ignore-case', 'case-insensitive regular expression')
    .option('-C, --context <words>', 'words of context on each side of a hit (default 12)')
    .option('-l, --files-with-matches', 'print only the ids of matching sessions')
    .option('-c, --count', 'print the number of hits per session')
    .option('-m, --max-count <n>', 'at most n hits shown per session (default 3)')
    .option('-s, --session <id>', 'only this session (id or unique prefix)')
    .option(
      '--in <selectors>',
      'only these fields: user, assistant, thinking, system, summary, noise, tool, tool:<Name>[:input|:result] ' +
        '(repeatable)',
      collect,
    )
    .option('--after <time>', 'only messages after (30m, 2h, 7d, 1w or an ISO date)')
    .option('--before <time>', 'only messages before (30m, 2h, 7d, 1w or an ISO date)')
    .option('--project <dir>', 'only this project: path segments (app, src/app), a folder or ~/app')
    .option('--agent <list>', 'only these agents, comma-separated')
    .option('--limit <n>', 'at most n sessions (default 20; unlimited with -l and -c)')
    .option('--mode <mode>', 'lexical, semantic or hybrid (default: hybrid once `strata embed` ran, else lexical)')
    .option('--json', 'print JSON on stdout')
    .option('--remote <name>', 'search a team store on PostgreSQL instead (see `strata remote`)')
    .option('--machine <name>', 'with --remote: only sessions pushed from this machine')
    .option('--user <name>', 'with --remote: only sessions of this user')
    .addHelpText('after', SEARCH_EXAMPLES)
    .action(async (words: string[], opts: SearchFlags) => {
      if (opts.remote) {
        const { runRemoteSearch } = await import('./remote-search.js');
        return runRemoteSearch(io, words.join(' '), { ...opts, remote: opts.remote }, parseAgentList(opts.agent));
      }
      const [
        { searchWithMode, SEARCH_MODES },
        { providerForStore },
        { formatSearch, noMatchLine },
        { parseSelectors },
        { displayPath, sessionHome },
        { openStoreForRead },
      ] = await Promise.all([
        import('../../core/embed/mode-search.js'),
        import('../../core/embed/create-provider.js'),
        import('../../core/retrieval/format-search.js'),
        import('../../core/retrieval/selectors.js'),
        import('../../core/retrieval/locations.js'),
        import('../store-access.js'),
      ]);
      const agents = parseAgentList(opts.agent);
      const listing = Boolean(opts.filesWithMatches || opts.count);
      const store = openStoreForRead(io);
      try {
        const mode = opts.mode as (typeof SEARCH_MODES)[number] | undefined;
        if (mode !== undefined && !SEARCH_MODES.includes(mode))
          throw new StrataError('USAGE', `--mode must be one of ${SEARCH_MODES.join(', ')}`);
        const provider = mode === 'lexical' ? undefined : providerForStore(store.db, io.env);
        const result = await searchWithMode(
          store.db,
          {
            ...(mode ? { mode } : {}),
            query: words.join(' '),
            regex: Boolean(opts.regex),
            ignoreCase: Boolean(opts.ignoreCase),
            ...(opts.context !== undefined ? { context: parseNonNegativeInt(opts.context, '--context') } : {}),
            ...(opts.maxCount !== undefined ? { maxPerSession: parsePositiveInt(opts.maxCount, '--max-count') } : {}),
            ...(opts.limit !== undefined
              ? { limit: parsePositiveInt(opts.limit, '--limit') }
              : listing
                ? { limit: Number.MAX_SAFE_INTEGER }
                : {}),
            ...(opts.session ? { session: opts.session } : {}),
            in: parseSelectors(opts.in),
            ...(opts.after ? { after: parseTimeSpec(opts.after) } : {}),
            ...(opts.before ? { before: parseTimeSpec(opts.before) } : {}),
            ...(opts.project ? { project: opts.project } : {}),
            ...(agents ? { agent: agents } : {}),
            ...(listing ? { exhaustive: true } : {}),
          },
          provider,
        );
        // As grep: exit 0 with hits, 1 with none (the reason on stderr), 2 on errors.
        if (opts.json) printJson(io, result);
        if (result.sessions.length === 0) throw new StrataError('NO_MATCH', noMatchLine(result));
        if (opts.json) return;
        const localHome = homeDir(io.env);
        const view = opts.filesWithMatches ? 'sessions' : opts.count ? 'counts' : 'hits';
        printLine(
          io.stdout,
          formatSearch(result, view, (p) => displayPath(p, null, sessionHome(p, localHome))),
        );
      } finally {
        store.close();
      }
    });
}
