// Owns the `strata ingest --redaction-report` listing: one line per secret redacted, saying its kind
// and where it was (session, line of the source file, message key), never its value.
import type { IngestReport } from '../../core/ingest/report.js';

export function formatRedactionReport(report: IngestReport): string {
  const lines = ['kind\tsession\tline\tmessage'];
  for (const r of report.redactionsWhere)
    lines.push(`${r.kind}\t${r.session}\t${r.line || '-'}\t${r.message || '(session title or metadata)'}`);
  return lines.join('\n');
}
