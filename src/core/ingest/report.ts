// Owns the ingest report: what was seen, skipped, ingested, malformed and redacted, for the closing summary.
import type { AgentName, ParseOutput } from '../../shared/model.js';
import type { WriteResult } from '../../store/session-writer.js';
import type { RedactionEntry } from '../../shared/redact/index.js';

export interface IngestProblem {
  path: string;
  line?: number;
  offset?: number;
  reason: string;
}

export interface IngestReport {
  roots: { agent: AgentName; root: string }[];
  filesSeen: number;
  filesSkipped: number;
  filesIngested: number;
  filesRewritten: number;
  filesFailed: number;
  filesNotSession: number;
  notSession: { path: string; reason: string }[];
  messagesAdded: number;
  messagesUpdated: number;
  blocksAdded: number;
  malformedLines: number;
  /** The first malformed records, with file and line (all are counted in malformedLines). */
  malformed: IngestProblem[];
  skippedRecords: Record<string, number>;
  /** Values dropped from kept records (a time out of range, an impossible token count), by field. */
  invalidValues: Record<string, number>;
  problems: IngestProblem[];
  redactions: number;
  redactionsByKind: Record<string, number>;
  /** Each secret redacted: its kind, session and message (never its value), for `--redaction-report`. */
  redactionsWhere: RedactionEntry[];
  sourcesArchived: number;
  /** Stored messages a changed source no longer has: kept, marked archived. */
  messagesArchived: number;
  /** Blocks an interrupted earlier ingest stored without indexing them, indexed by this run. */
  blocksIndexedLate: number;
  bytesRead: number;
  durationMs: number;
}

export const MAX_REPORTED_MALFORMED = 50;

export function emptyReport(): IngestReport {
  return {
    roots: [],
    filesSeen: 0,
    filesSkipped: 0,
    filesIngested: 0,
    filesRewritten: 0,
    filesFailed: 0,
    filesNotSession: 0,
    notSession: [],
    messagesAdded: 0,
    messagesUpdated: 0,
    blocksAdded: 0,
    malformedLines: 0,
    malformed: [],
    skippedRecords: {},
    invalidValues: {},
    problems: [],
    redactions: 0,
    redactionsByKind: {},
    redactionsWhere: [],
    sourcesArchived: 0,
    messagesArchived: 0,
    blocksIndexedLate: 0,
    bytesRead: 0,
    durationMs: 0,
  };
}

export function mergeParseStats(
  report: IngestReport,
  path: string,
  output: Pick<ParseOutput, 'malformed' | 'skipped' | 'invalid'>,
  perFile: { malformed: number; skipped: number },
): void {
  for (const [field, n] of Object.entries(output.invalid ?? {}))
    report.invalidValues[field] = (report.invalidValues[field] ?? 0) + n;
  report.malformedLines += output.malformed.length;
  perFile.malformed += output.malformed.length;
  for (const issue of output.malformed) {
    if (report.malformed.length >= MAX_REPORTED_MALFORMED) break;
    report.malformed.push({
      path,
      line: issue.line,
      ...(issue.offset === undefined ? {} : { offset: issue.offset }),
      reason: issue.reason,
    });
  }
  for (const [type, n] of Object.entries(output.skipped)) {
    report.skippedRecords[type] = (report.skippedRecords[type] ?? 0) + n;
    perFile.skipped += n;
  }
}

export function throughputMBps(report: IngestReport): number {
  return report.durationMs > 0 ? report.bytesRead / 1e6 / (report.durationMs / 1000) : 0;
}

/** Adds one stored file's write counts to the report (or lists it as not a session). */
export function countResult(
  report: IngestReport,
  result: WriteResult,
  notSession: string | undefined,
  path: string,
): void {
  if (notSession) {
    report.filesNotSession++;
    report.notSession.push({ path, reason: notSession });
    return;
  }
  report.filesIngested++;
  report.messagesAdded += result.messagesAdded;
  report.messagesUpdated += result.messagesUpdated;
  report.blocksAdded += result.blocksAdded;
  report.messagesArchived += result.messagesArchived ?? 0;
}
