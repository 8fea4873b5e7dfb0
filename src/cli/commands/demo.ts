// Owns `strata demo`: writes the built-in example sessions to a temp folder, ingests them into a temp
// store, and shows what strata found — no agent history, no network, nothing outside the temp folder.
import type { Command } from 'commander';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDemoSessions } from '../../core/demo/demo-sessions.js';
import { ingest } from '../../core/ingest/ingest.js';
import { listSessions } from '../../core/retrieval/session-listing.js';
import { listingLines } from '../../core/retrieval/format-listing.js';
import { search } from '../../core/retrieval/search.js';
import { displayPath, sessionHome } from '../../core/retrieval/locations.js';
import { formatSearch } from '../../core/retrieval/format-search.js';
import { openStore } from '../../store/db.js';
import { homeDir } from '../../shared/paths.js';
import { formatIngestSummary } from '../../core/ingest/format-report.js';
import { printJson, printLine, type CliIo } from '../io.js';

/** What the demo asks its store: a decision, and a bug described in Chinese. */
const DEMO_QUERIES = ['SQLite', '时区'];

export function registerDemoCommand(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description('ingest built-in example sessions into a temporary store and show what strata finds')
    .option('--keep', 'keep the temporary folder (prints its path) instead of deleting it')
    .option('--json', 'print JSON on stdout')
    .addHelpText(
      'after',
      '\nExamples:\n  strata demo\n  strata demo --keep     keep the temp store to try `STRATA_HOME=<dir> strata ' +
        'search ...`',
    )
    .action(async (opts: { keep?: boolean; json?: boolean }) => {
      const dir = mkdtempSync(join(tmpdir(), 'strata-demo-'));
      const home = join(dir, 'strata-home');
      try {
        const folder = writeDemoSessions(join(dir, 'claude'));
        const store = openStore(join(home, 'strata.db'));
        try {
          const report = await ingest({ store, paths: [folder], env: io.env, cwd: io.cwd });
          const sessions = listSessions(store.db, {}, homeDir(io.env));
          const searches = DEMO_QUERIES.map((query) => ({
            query,
            result: search(store.db, { query, maxPerSession: 2 }),
          }));
          if (opts.json) return printJson(io, { home, report, sessions, searches });
          printLine(io.stdout, `strata demo: ingested ${sessions.length} example Claude Code sessions from ${folder}`);
          printLine(io.stdout, formatIngestSummary(report, io.env));
          printLine(io.stdout);
          printLine(io.stdout, '$ strata index');
          printLine(io.stdout, listingLines(store.db, {}, homeDir(io.env)).join('\n'));
          for (const { query, result } of searches) {
            printLine(io.stdout);
            printLine(io.stdout, `$ strata search ${query}`);
            printLine(
              io.stdout,
              formatSearch(result, 'hits', (p) => displayPath(p, null, sessionHome(p, homeDir(io.env)))),
            );
          }
          printLine(io.stdout);
          printLine(
            io.stdout,
            opts.keep
              ? `kept: STRATA_HOME=${home}`
              : 'Next: `strata ingest` reads your own agent histories (see `strata sources`).',
          );
        } finally {
          store.close();
        }
      } finally {
        if (!opts.keep) rmSync(dir, { recursive: true, force: true });
      }
    });
}
