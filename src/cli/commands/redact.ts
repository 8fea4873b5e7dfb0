// Owns `strata redact`: scans the stored texts again with the current secret rules (what `strata ingest`
// also does once after an upgrade that changed the rules), and the ingest's call to it.
import type { Command } from 'commander';
import { needsRescan, pendingBlocks, rescanStore, type RescanReport } from '../../core/redaction/rescan-store.js';
import type { Store } from '../../store/db.js';
import { describeHolder } from '../../shared/file-lock.js';
import { createProgress, printJson, printLine, type CliIo } from '../io.js';
import { openStoreForWrite } from '../store-access.js';

function formatRescan(report: RescanReport): string {
  const kinds = Object.entries(report.byKind)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  const rows = Object.values(report.changed).reduce((a, b) => a + b, 0);
  const verb = report.dryRun ? 'would redact' : 'redacted';
  const secrets = `${report.secrets} ${report.secrets === 1 ? 'secret' : 'secrets'}`;
  const found = report.secrets === 0 ? 'no secret found' : `${verb} ${secrets} in ${rows} rows (${kinds})`;
  const scanned = report.blocksScanned.toLocaleString('en-US');
  return `strata: scanned ${scanned} blocks with the current secret rules: ${found}`;
}

function rescan(io: CliIo, store: Store, options: { dryRun?: boolean; json?: boolean }): RescanReport {
  const progress = createProgress(io, !options.json);
  const report = rescanStore(store, {
    dryRun: options.dryRun,
    ...(io.env.STRATA_LOCK_TIMEOUT_MS ? { lockTimeoutMs: Number(io.env.STRATA_LOCK_TIMEOUT_MS) } : {}),
    onLockWait: (holder) => io.stderr.write(`strata: waiting for the store lock held by ${describeHolder(holder)}…\n`),
    onProgress: (done, total) => progress.update(done, total, 'blocks'),
  });
  progress.done();
  return report;
}

/**
 * Before an ingest: when the store's texts were redacted with older rules (or a scan was cut short),
 * scan them again first, saying so when there is something to read.
 */
export function rescanIfRulesChanged(io: CliIo, store: Store, json: boolean): RescanReport | undefined {
  if (!needsRescan(store)) return undefined;
  const pending = pendingBlocks(store);
  if (pending > 0 && !json)
    printLine(
      io.stderr,
      `strata: the secret rules changed; scanning ${pending.toLocaleString('en-US')} stored blocks again`,
    );
  const report = rescan(io, store, { json });
  if (pending > 0 && !json) printLine(io.stderr, formatRescan(report));
  return pending > 0 ? report : undefined;
}

export function registerRedactCommand(program: Command, io: CliIo): void {
  program
    .command('redact')
    .description('scan the stored texts again with the current secret rules and redact what they find')
    .option('--dry-run', 'count what would be redacted, change nothing')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      `
Examples:
  strata redact --dry-run     how many stored secrets the current rules would redact
  strata redact               redact them (titles, messages, tool calls, versions, logbooks)
  strata redact --json        the same, with a JSON report on stdout
strata ingest runs this once by itself after an upgrade that changed the rules.
Only the secret is replaced, by [REDACTED:<kind>]; the full-text index follows.`,
    )
    .action((opts: { dryRun?: boolean; json?: boolean }) => {
      const store = openStoreForWrite(io);
      try {
        // A full scan, whatever rules the store was scanned with.
        const report = rescan(io, store, opts);
        if (opts.json) printJson(io, report);
        else printLine(io.stderr, formatRescan(report));
      } finally {
        store.close();
      }
    });
}
