// Owns `strata logbook` (build or update a project's logbook from its stored sessions or a Puffin
// history), `strata logbook show` (the stored logbook newest first, cut to a token budget) and
// `strata logbook list` (workspaces that have a logbook).
import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { LOGBOOK_FORMATS, type LogbookFormat } from '../../core/logbook/format.js';
import { EVENT_TYPES, type EventType } from '../../core/logbook/types.js';
import type { WorkspaceSelection } from '../../core/logbook/conversations.js';
import { StrataError, usageError } from '../../shared/errors.js';
import { tildify } from '../../shared/paths.js';
import { parseTimeSpec } from '../../shared/time.js';
import { listLogbookRows } from '../../store/logbook-table.js';
import type { Store } from '../../store/db.js';
import { formatTable, printJson, printLine, type CliIo } from '../io.js';
import { openStoreForRead, openStoreForWrite } from '../store-access.js';
import { addLlmOptions, llmConfigFromOptions } from './llm.js';
import { parsePositiveInt } from './options.js';

interface BuildOpts {
  project?: string;
  history?: string;
  out?: string;
  format?: string;
  continueFrom?: string;
  full?: boolean;
  maxEvents?: string;
  chunkTokens?: string;
  parallel?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  maxCalls?: string;
  maxCost?: string;
  json?: boolean;
}

function parseFormat(value: string | undefined, fallback: LogbookFormat): LogbookFormat {
  if (value === undefined) return fallback;
  if (!(LOGBOOK_FORMATS as readonly string[]).includes(value))
    throw usageError(`--format must be one of ${LOGBOOK_FORMATS.join(', ')}, got "${value}"`);
  return value as LogbookFormat;
}

/**
 * `--project DIR`: an existing folder is made absolute; other text is matched as `strata index --project` matches it.
 */
export function projectWorkspace(cwd: string, project: string | undefined): string {
  if (project === undefined) return resolve(cwd);
  const path = resolve(cwd, project);
  return existsSync(path) && statSync(path).isDirectory() ? path : project;
}

/**
 * The provider a logbook was built with is used again unless --provider names one: an offline run never
 * silently replaces a model-built logbook, and replacing one on request is said.
 */
function rememberedProvider(
  opts: BuildOpts,
  stored: { generator: { provider: string; model: string } } | undefined,
  io: CliIo,
): BuildOpts {
  const built = stored?.generator;
  if (!built || built.provider === 'extractive') return opts;
  const was = `${built.provider} (${built.model})`;
  if (opts.provider) {
    if (opts.provider !== built.provider || (opts.model && opts.model !== built.model))
      printLine(io.stderr, `logbook: replacing the logbook built by ${was} (--provider ${opts.provider})`);
    return opts;
  }
  printLine(io.stderr, `logbook: using ${was}, the provider this logbook was built with (--provider to change)`);
  return { ...opts, provider: built.provider, model: opts.model ?? built.model };
}

async function runBuild(io: CliIo, opts: BuildOpts): Promise<void> {
  // Loaded here: `logbook show` and `list` (run at every session start) need none of this.
  const [
    { assertNotReentrant, createProvider, configuredRunner, createStoreCache },
    { formatLogbook, runLogbook, readStoredLogbook },
  ] = await Promise.all([import('../../core/llm/index.js'), import('../../core/logbook/index.js')]);
  assertNotReentrant(io.env, 'strata logbook');
  if (opts.history && opts.project) throw usageError('--history cannot be combined with --project');
  const format = parseFormat(opts.format, opts.out ? 'json' : 'text');
  const maxEvents = opts.maxEvents !== undefined ? parsePositiveInt(opts.maxEvents, '--max-events') : undefined;
  if (maxEvents === 0) throw usageError('--max-events must be at least 1');
  const chunkTokens = opts.chunkTokens !== undefined ? parsePositiveInt(opts.chunkTokens, '--chunk-tokens') : undefined;
  if (chunkTokens !== undefined && chunkTokens < 200) throw usageError('--chunk-tokens must be at least 200');
  const parallel = opts.parallel !== undefined ? Math.max(1, parsePositiveInt(opts.parallel, '--parallel')) : undefined;
  const history = opts.history ? resolve(io.cwd, opts.history) : undefined;
  if (history && !existsSync(history)) throw usageError(`--history ${opts.history}: no such file`);
  const continueFrom = opts.continueFrom ? resolve(io.cwd, opts.continueFrom) : undefined;
  const out = opts.out ? resolve(io.cwd, opts.out) : continueFrom;
  const store = openStoreForWrite(io);
  try {
    // Conversations go to a model provider: texts stored under older secret rules are scanned first.
    (await import('./redact.js')).rescanIfRulesChanged(io, store, format === 'json');
    let selection: WorkspaceSelection;
    let workspace: string;
    if (history) {
      const { ingest } = await import('../../core/ingest/ingest.js');
      await ingest({
        store,
        paths: [history],
        agents: ['puffin'],
        env: io.env,
        cwd: io.cwd,
        ...(io.env.STRATA_LOCK_TIMEOUT_MS ? { lockTimeoutMs: Number(io.env.STRATA_LOCK_TIMEOUT_MS) } : {}),
      });
      selection = { kind: 'history', path: history };
      workspace = `history:${history}`;
    } else {
      workspace = projectWorkspace(io.cwd, opts.project);
      selection = { kind: 'project', project: workspace };
    }
    const config = llmConfigFromOptions(rememberedProvider(opts, readStoredLogbook(store.db, workspace), io), io);
    const provider = createProvider(config, { env: io.env, cwd: io.cwd });
    const runner = configuredRunner(config, provider, {
      cache: provider.networked ? createStoreCache(store.db) : undefined,
      onRetry: (line) => io.stderr.write(`logbook: ${line}\n`),
    });
    const result = await runLogbook({
      store,
      workspace,
      selection,
      runner,
      format,
      ...(out ? { out } : {}),
      ...(continueFrom ? { continueFrom } : {}),
      ...(opts.full ? { full: true } : {}),
      ...(maxEvents !== undefined ? { maxEvents } : {}),
      ...(chunkTokens !== undefined ? { chunkTokens } : {}),
      ...(parallel !== undefined ? { parallel } : {}),
      ...(io.env.STRATA_LOCK_TIMEOUT_MS ? { lockTimeoutMs: Number(io.env.STRATA_LOCK_TIMEOUT_MS) } : {}),
      logger: { info: (l) => printLine(io.stderr, l), warn: (l) => printLine(io.stderr, `strata: warning: ${l}`) },
    });
    const llm = runner.stats();
    const shown = history ? tildify(history, io.env) : tildify(workspace, io.env);
    if (result.conversations === 0)
      printLine(
        io.stderr,
        `logbook: no sessions for ${shown} in the store; the logbook is empty (run \`strata ingest\` ` +
          `first${history ? '' : ', or pass --project DIR'})`,
      );
    else {
      printLine(
        io.stderr,
        `logbook: ${result.conversations} conversations (${result.processed} processed, ` +
          `${result.unchanged} unchanged, ${result.empty} empty); ${result.chunks} chunks, ` +
          `${llm.calls + llm.localAnswers} provider calls${
            llm.localAnswers ? ' (answered ' + 'locally)' : ''
          }, ${llm.cacheHits} cached; ` +
          `${result.document.timeline.length} events${result.changed ? '' : ' (nothing new; logbook unchanged)'}`,
      );
    }
    if (result.failed.length > 0)
      printLine(
        io.stderr,
        `Warning: failed to process ${result.failed.length} conversations (retried on the next run)`,
      );
    if (opts.json) {
      printJson(io, {
        workspace,
        output: out ?? null,
        changed: result.changed,
        continuedFrom: result.continuedFrom,
        conversations: result.conversations,
        processed: result.processed,
        unchanged: result.unchanged,
        empty: result.empty,
        chunks: result.chunks,
        events: result.document.timeline.length,
        failed: result.failed,
        dropped: result.dropped,
        budgetStop: result.budgetStop,
        calls: llm.calls + llm.localAnswers,
        llm,
      });
    }
    if (!opts.json) {
      if (out) printLine(io.stdout, out);
      else io.stdout.write(formatLogbook(result.document, format));
    }
    if (result.processed > 0 && result.failed.length >= result.processed)
      throw new StrataError(
        'PROVIDER',
        `logbook: every conversation failed (${result.failed.length}); see the warnings above`,
      );
  } finally {
    store.close();
  }
}

function parseTypes(value: string | undefined): EventType[] | undefined {
  if (!value) return undefined;
  const types = value
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  for (const t of types)
    if (!(EVENT_TYPES as readonly string[]).includes(t))
      throw usageError(`unknown event type "${t}"; use ${EVENT_TYPES.join(', ')}`);
  return types as EventType[];
}

export function registerLogbookCommand(program: Command, io: CliIo): void {
  const logbook = program
    .command('logbook')
    .description(
      "build or update a project's logbook: the decisions, facts and bugs of its sessions, each cited to a message " +
        '(incremental)',
    )
    .option(
      '--project <dir>',
      'the sessions of this project (default: the current folder; matched as `strata index --project`)',
    )
    .option('--history <file>', 'a Puffin history.json instead of a stored project (ingested first)')
    .option('--out <file>', 'also write the logbook to this file (atomic; JSON unless --format says otherwise)')
    .option('--format <format>', 'text (default on stdout), json or markdown')
    .option(
      '--continue-from <file>',
      'update this logbook file (default: --out when it exists, else the stored logbook)',
    )
    .option('--full', 'rebuild from the first conversation instead of updating')
    .option('--max-events <n>', 'keep the newest n events (default 100)')
    .option('--chunk-tokens <n>', 'split conversations into chunks of at most n tokens (default 3000)')
    .option(
      '--parallel <n>',
      'process n conversations at a time, each seeing the logbook as it was at the start of its batch',
    )
    .option('--json', 'print the run report as JSON on stdout')
    .addHelpText(
      'after',
      `
Examples:
  strata logbook                                   this project's logbook as text (updated incrementally)
  strata logbook --project ~/src/app --format markdown
  strata logbook --history .puffin/history.json --out logbook.json
  strata logbook --continue-from logbook.json      process only new or changed sessions
  strata logbook --provider openai --parallel 4 --max-cost 0.50
  strata logbook show --budget 1500 --type decision,bug
  strata logbook list
Nothing new: 0 provider calls and the output file is left as it is. Failed conversations are retried on the next run.`,
    )
    .action((opts: BuildOpts) => runBuild(io, opts));
  addLlmOptions(logbook);

  logbook
    .command('show')
    .description('print the stored logbook of a project, newest first, cut to a token budget')
    .option(
      '--project <dir>',
      'the project folder (default: the current folder; a logbook of an enclosing folder serves it too)',
    )
    .option('--budget <tokens>', 'at most this many tokens')
    .option('--type <types>', 'only these event types, comma-separated (decision,fact,bug)')
    .option('--since <time>', 'only events since (30m, 2h, 7d, 1w or an ISO date)')
    .option('--json', 'print the events as JSON on stdout')
    .option('--remote <name>', 'a logbook pushed to a team store (see `strata remote`)')
    .option('--machine <name>', 'with --remote: the logbook this machine pushed (default: the newest)')
    .addHelpText(
      'after',
      `
Examples:
  strata logbook show
  strata logbook show --budget 1500 --type decision,bug --since 30d
  strata logbook show --project ~/src/app --json
  strata logbook show --remote team --project /home/alice/src/app   as pushed (the pushing machine's path)`,
    )
    .action(async (_opts: unknown, command: Command) => {
      // Options the parent also declares (--project, --json) are parsed by it: read them merged.
      const opts = command.optsWithGlobals<{
        project?: string;
        budget?: string;
        type?: string;
        since?: string;
        json?: boolean;
        remote?: string;
        machine?: string;
      }>();
      const { logbookForProject } = await import('../../core/logbook/show.js');
      const store = opts.remote ? await remoteLogbookStore(io, opts.remote, opts.machine) : openStoreForRead(io);
      try {
        const view = logbookForProject(store.db, projectWorkspace(io.cwd, opts.project), {
          ...(opts.budget !== undefined ? { budget: parsePositiveInt(opts.budget, '--budget') } : {}),
          ...(opts.type ? { types: parseTypes(opts.type) } : {}),
          ...(opts.since ? { since: parseTimeSpec(opts.since) } : {}),
        });
        if (opts.json) return printJson(io, view);
        if (!view.workspace)
          return printLine(io.stderr, 'no logbook for this project yet (run `strata logbook` first)');
        io.stdout.write(view.text);
        if (view.events.length < view.matching)
          printLine(io.stderr, `logbook: ${view.events.length} of ${view.matching} events shown (token budget)`);
      } finally {
        store.close();
      }
    });

  logbook
    .command('list')
    .description('list the workspaces that have a logbook, with their size and age')
    .option('--json', 'print JSON on stdout')
    .addHelpText(
      'after',
      `
Examples:
  strata logbook list
  strata logbook list --json`,
    )
    .action((_opts: unknown, command: Command) => {
      const opts = command.optsWithGlobals<{ json?: boolean }>();
      const store = openStoreForRead(io);
      try {
        const rows = listLogbookRows(store.db);
        if (opts.json) return printJson(io, rows);
        if (rows.length === 0) return printLine(io.stderr, 'no logbooks yet (run `strata logbook`)');
        printLine(
          io.stdout,
          formatTable(
            rows.map((r) => [
              String(r.events),
              `${Math.max(1, Math.round(r.bytes / 1024))} KB`,
              r.generatedAt.slice(0, 16).replace('T', ' '),
              r.kind,
              tildify(r.workspace, io.env),
            ]),
            ['EVENTS', 'SIZE', 'GENERATED', 'KIND', 'WORKSPACE'],
          ),
        );
      } finally {
        store.close();
      }
    });
}

/** The logbooks pushed to a team store, in a throwaway local store the local `logbook show` reads. */
async function remoteLogbookStore(io: CliIo, name: string, machine?: string): Promise<Store> {
  const [{ openRemoteScratch }, scratch] = await Promise.all([
    import('./remote-search.js'),
    import('../../core/team/remote-scratch.js'),
  ]);
  return openRemoteScratch(io, name, (client) => scratch.remoteLogbookStore(client, machine));
}
