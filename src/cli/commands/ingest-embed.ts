// Owns the embedding step of `strata ingest`: after the ingest is committed, the passages it added get
// vectors when the store holds some. It never fails the ingest: a failure is one warning line on stderr
// (exit code stays 0) and `strata embed` or the next ingest resumes.
import type { Database } from 'better-sqlite3';
import type { NewPassagesReport } from '../../core/embed/embed-new.js';
import { embeddingModels } from '../../store/embeddings.js';
import { createProgress, printLine, type CliIo } from '../io.js';

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** The cause in one line, secrets redacted, with the fix for a refused key. */
async function describeCause(stopped: string, url: string | undefined, env: CliIo['env']): Promise<string> {
  const { redactOutgoingText } = await import('../../core/redaction/outgoing.js');
  const cause = redactOutgoingText(url && !stopped.includes(url) ? `${stopped} (${url})` : stopped);
  return /HTTP 40[13]\b/.test(cause) && !env.STRATA_EMBED_API_KEY ? `${cause}; STRATA_EMBED_API_KEY is not set` : cause;
}

export async function embedAfterIngest(
  io: CliIo,
  db: Database,
  options: { json?: boolean },
): Promise<NewPassagesReport | undefined> {
  if (embeddingModels(db).length === 0) return undefined; // nobody opted in: nothing to load
  const progress = createProgress(io, !options.json);
  let report: NewPassagesReport | undefined;
  try {
    const { embedNewPassages } = await import('../../core/embed/embed-new.js');
    report = await embedNewPassages(db, io.env, {
      onProgress: (p) => progress.update(p.done, p.total, 'passages embedded'),
    });
  } catch (error) {
    report = { provider: '', model: '', embedded: 0, left: 0, seconds: 0, stopped: (error as Error).message };
  } finally {
    progress.done();
  }
  if (!report) return undefined;
  if (report.stopped) {
    const left = report.left > 0 ? `${plural(report.left, 'passage')} not embedded` : 'passages not embedded';
    const cause = await describeCause(report.stopped.split('\n')[0]!, report.url, io.env);
    printLine(io.stderr, `strata: warning: ${left}: ${cause}; run \`strata embed\` to resume`);
    return { ...report, stopped: cause };
  }
  if (!options.json && report.embedded > 0)
    printLine(
      io.stderr,
      `embeddings: ${plural(report.embedded, 'passage')} embedded with ${report.model} in ${report.seconds} s`,
    );
  return report;
}
