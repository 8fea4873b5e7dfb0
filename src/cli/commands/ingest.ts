// Owns `strata ingest`: runs the ingest engine with a TTY progress bar and prints the closing summary.
import type { Command } from 'commander';
import { ingest, type IngestOptions } from '../../core/ingest/ingest.js';
import { formatIngestSummary } from '../../core/ingest/format-report.js';
import { throughputMBps } from '../../core/ingest/report.js';
import { ensureListing } from '../../core/retrieval/listing-table.js';
import { describeHolder } from '../../shared/file-lock.js';
import { AGENTS } from '../../shared/model.js';
import { homeDir } from '../../shared/paths.js';
import { StrataError } from '../../shared/errors.js';
import { embedAfterIngest } from './ingest-embed.js';
import { createProgress, printJson, printLine, type CliIo } from '../io.js';
import { openStoreForWrite } from '../store-access.js';
import { parseAgentList } from './options.js';
import { rescanIfRulesChanged } from './redact.js';
import { formatRedactionReport } from './redaction-report.js';

/**
 * STRATA_INGEST_WORKER=0|1 forces line sources to be read inline or by the ingest threads, and
 * STRATA_INGEST_PREFETCH=0|1 the read-ahead thread's prefetching off or on (tests, debugging).
 */
export function threadOptions(env: CliIo['env']): Pick<IngestOptions, 'pipeline' | 'prefetch'> {
  const { STRATA_INGEST_WORKER: worker, STRATA_INGEST_PREFETCH: prefetch } = env;
  return {
    pipeline: worker === '1' ? 'threaded' : worker === '0' ? 'inline' : 'auto',
    prefetch: prefetch === '1' ? 'on' : prefetch === '0' ? 'off' : 'auto',
  };
}

export function registerIngestCommand(program: Command, io: CliIo): void {
  program
    .command('ingest')
    .description(
      'ingest agent histories into the store (incremental: unchanged files are skipped, appended lines are read alone)',
    )
    .argument('[paths...]', "files or folders to ingest (default: every agent's default locations)")
    .option('--agent <list>', `only these agents, comma-separated (${AGENTS.join(',')})`)
    .option('--no-redact', 'keep secrets (API keys, tokens, passwords) instead of redacting them')
    .option('--redaction-report', 'list each secret redacted on stdout: kind, session, line, message (never the value)')
    .option('--json', 'print the report as JSON on stdout')
    .option('--no-embed', 'do not embed the new passages (a store holds vectors once `strata embed` ran)')
    .option('--watch', 'keep running: ingest files as they change (Ctrl-C stops after the current file)')
    .option('--push [remote]', 'then push to a team store (`strata push`; the only remote when none is named)')
    .addHelpText(
      'after',
      `
Examples:
  strata ingest                                 ingest every agent's default locations
  strata ingest ~/.claude/projects/-home-me-app ingest one project folder
  strata ingest session.jsonl --json            ingest one file, report as JSON
  strata ingest --agent codex,gemini            only Codex and Gemini histories
  strata ingest --redaction-report              also list what was redacted where
  strata ingest --watch                         ingest the default locations' files as they change
  strata ingest --no-embed                      ingest now, embed later (\`strata embed\` or the next ingest)
Once \`strata embed\` ran, each ingest embeds the passages it added with the same provider and model
(not --watch, not the hooks); a failure to embed is a warning, the ingest stands (exit code 0).
Sessions stay in the store when their source files are deleted (they are marked archived).
Another running ingest is waited for up to 30 s (exit code 3 after that).`,
    )
    .action(
      async (
        paths: string[],
        opts: {
          agent?: string;
          redact: boolean;
          embed: boolean;
          json?: boolean;
          redactionReport?: boolean;
          watch?: boolean;
          push?: string | boolean;
        },
      ) => {
        const agents = parseAgentList(opts.agent);
        if (opts.push !== undefined && (opts.json || opts.watch)) {
          throw new StrataError('USAGE', '--push goes with neither --json nor --watch: run `strata push` after');
        }
        if (opts.watch)
          return (await import('./ingest-watch.js')).runIngestWatch(io, paths, {
            ...(agents ? { agents } : {}),
            redact: opts.redact,
            json: opts.json,
          });
        const store = openStoreForWrite(io);
        try {
          const rescan = opts.redact ? rescanIfRulesChanged(io, store, Boolean(opts.json)) : undefined;
          const progress = createProgress(io, !opts.json);
          const report = await ingest({
            store,
            paths,
            ...(agents ? { agents } : {}),
            redact: opts.redact,
            ...(io.env.STRATA_LOCK_TIMEOUT_MS ? { lockTimeoutMs: Number(io.env.STRATA_LOCK_TIMEOUT_MS) } : {}),
            env: io.env,
            cwd: io.cwd,
            ...threadOptions(io.env),
            onLockWait: (holder) =>
              io.stderr.write(`strata: waiting for the store lock held by ${describeHolder(holder)}…\n`),
            onProgress: (done, total) => progress.update(done, total, 'files'),
            // The listing rows of every session this run changed (and of their parents): `strata index` only reads.
            afterWrite: (db) => ensureListing(db, homeDir(io.env)),
          });
          progress.done();
          const { redactionsWhere, ...summary } = report;
          if (!opts.json) printLine(io.stderr, formatIngestSummary(report, io.env));
          // After the commit above: embedding adds vectors, it never holds the ingest back or undoes it.
          const embeddings = opts.embed ? await embedAfterIngest(io, store.db, { json: opts.json }) : undefined;
          if (opts.json)
            printJson(io, {
              ...summary,
              ...(opts.redactionReport ? { redactionsWhere } : {}),
              mbPerSec: throughputMBps(report),
              ...(rescan ? { rescan } : {}),
              ...(embeddings ? { embeddings } : {}),
            });
          if (opts.redactionReport && !opts.json) printLine(io.stdout, formatRedactionReport(report));
        } finally {
          store.close();
        }
        if (opts.push !== undefined) {
          const { runPush } = await import('./remote.js');
          await runPush(io, typeof opts.push === 'string' ? opts.push : undefined, {});
        }
      },
    );
}
