// Owns the ingest report as people read it: counts, speed, and what went wrong where (capped; all of it
// is in --json), paths shown relative to the home folder.
import { tildify, type Env } from '../../shared/paths.js';
import { throughputMBps, type IngestReport } from './report.js';

/** Reasons listed, and files listed per reason, before the rest is only counted (all are in --json). */
const NOT_SESSION_REASONS_SHOWN = 8;
const NOT_SESSION_FILES_SHOWN = 5;

/** The files that are not sessions, grouped by reason (most files first), capped. */
function formatNotSessions(report: IngestReport, env: Env): string[] {
  const byReason = new Map<string, string[]>();
  for (const { path, reason } of report.notSession) {
    const paths = byReason.get(reason) ?? [];
    paths.push(path);
    byReason.set(reason, paths);
  }
  const groups = [...byReason].sort((a, b) => b[1].length - a[1].length);
  const lines: string[] = [];
  for (const [reason, paths] of groups.slice(0, NOT_SESSION_REASONS_SHOWN)) {
    lines.push(`  not a session (${paths.length}): ${reason}`);
    for (const path of paths.slice(0, NOT_SESSION_FILES_SHOWN)) lines.push(`    ${tildify(path, env)}`);
    if (paths.length > NOT_SESSION_FILES_SHOWN) lines.push(`    … ${paths.length - NOT_SESSION_FILES_SHOWN} more`);
  }
  const rest = groups.slice(NOT_SESSION_REASONS_SHOWN).reduce((n, [, paths]) => n + paths.length, 0);
  if (rest > 0) lines.push(`  … ${rest} more files not sessions, for other reasons (see --json)`);
  return lines;
}

export function formatIngestSummary(report: IngestReport, env: Env): string {
  const lines: string[] = [];
  const mb = report.bytesRead / 1e6;
  lines.push(
    `files: ${report.filesSeen} seen, ${report.filesSkipped} unchanged, ${report.filesIngested} ingested` +
      (report.filesRewritten ? ` (${report.filesRewritten} rewritten)` : '') +
      (report.filesNotSession ? `, ${report.filesNotSession} not sessions` : '') +
      (report.filesFailed ? `, ${report.filesFailed} failed` : ''),
  );
  lines.push(
    `messages: ${report.messagesAdded} added, ${report.messagesUpdated} updated` +
      (report.messagesArchived ? `, ${report.messagesArchived} gone from their source (kept, archived)` : '') +
      `; blocks: ${report.blocksAdded}`,
  );
  lines.push(
    `malformed lines: ${report.malformedLines}; redactions: ` +
      `${report.redactions}${
        report.sourcesArchived ? `; sources gone (sessions kept, archived): ` + `${report.sourcesArchived}` : ''
      }`,
  );
  const invalid = Object.entries(report.invalidValues);
  if (invalid.length > 0)
    lines.push(`invalid values dropped (records kept): ${invalid.map(([field, n]) => `${field} ${n}`).join(', ')}`);
  if (report.blocksIndexedLate > 0)
    lines.push(
      `full-text index: ${report.blocksIndexedLate} blocks left unindexed by an interrupted ingest were indexed`,
    );
  lines.push(
    `read ${mb.toFixed(1)} MB in ` +
      `${(report.durationMs / 1000).toFixed(2)} s (${throughputMBps(report).toFixed(1)} MB/s)`,
  );
  for (const m of report.malformed.slice(0, 10))
    lines.push(
      `  malformed: ${tildify(m.path, env)}:${m.line}${
        m.offset !== undefined ? ` (byte ` + `${m.offset})` : ''
      }: ${m.reason}`,
    );
  if (report.malformedLines > 10) lines.push(`  … ${report.malformedLines - 10} more malformed lines (see --json)`);
  lines.push(...formatNotSessions(report, env));
  for (const p of report.problems.slice(0, 10)) lines.push(`  problem: ${tildify(p.path, env)}: ${p.reason}`);
  if (report.problems.length > 10) lines.push(`  … ${report.problems.length - 10} more problems (see --json)`);
  return lines.join('\n');
}
