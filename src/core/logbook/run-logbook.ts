// Owns one `strata logbook` run end to end: the workspace lock (naming its holder), the logbook to
// continue (--continue-from, else the output file when it is a JSON logbook, else the stored one), the
// loop, and the writes: the store row and the output file (atomic), both skipped when nothing was new.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StrataError, describeError } from '../../shared/errors.js';
import { acquireLock, describeHolder } from '../../shared/file-lock.js';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { sha256 } from '../../shared/hash.js';
import type { Store } from '../../store/db.js';
import { writeLogbookRow } from '../../store/logbook-table.js';
import { buildLogbook, type BuildOptions, type BuildResult } from './build-logbook.js';
import { parseLogbook, readStoredLogbook } from './document.js';
import { assertLogbook } from './schema.js';
import { formatJson, formatLogbook, type LogbookFormat } from './format.js';
import { silentLogbookLogger, type LogbookDocument } from './types.js';

export interface RunLogbookOptions extends Omit<BuildOptions, 'db' | 'previous'> {
  store: Store;
  /** Output file, written in `format` (a JSON one is also what the next run continues from). */
  out?: string | undefined;
  format?: LogbookFormat;
  continueFrom?: string | undefined;
  lockTimeoutMs?: number;
}

export interface RunLogbookResult extends BuildResult {
  /** Where the logbook continued from: a file, the store, or nothing (a fresh build). */
  continuedFrom: string | null;
  storeWritten: boolean;
  fileWritten: boolean;
}

/** The lock of a workspace's logbook, beside the store (one writer per workspace). */
function logbookLockPath(storePath: string, workspace: string): string {
  return join(dirname(storePath), 'locks', `logbook-${sha256(workspace).slice(0, 16)}.lock`);
}

/** A logbook file to continue: it must be a logbook, and of this workspace (else it is left untouched). */
function readLogbookFile(path: string, workspace: string): LogbookDocument {
  const doc = parseLogbook(readFileSync(path, 'utf8'), path);
  if (doc.workspace !== workspace)
    throw new StrataError(
      'USAGE',
      `${path} is the logbook of ${doc.workspace}, not of ${workspace}; it was left untouched`,
    );
  return doc;
}

function readPrevious(options: RunLogbookOptions): { previous: LogbookDocument | undefined; from: string | null } {
  if (options.continueFrom) {
    if (!existsSync(options.continueFrom))
      throw new StrataError('USAGE', `--continue-from ${options.continueFrom}: no such file`);
    return { previous: readLogbookFile(options.continueFrom, options.workspace), from: options.continueFrom };
  }
  if (options.out && (options.format ?? 'json') === 'json' && existsSync(options.out)) {
    try {
      return { previous: readLogbookFile(options.out, options.workspace), from: options.out };
    } catch (error) {
      throw new StrataError(
        'USAGE',
        `${describeError(error).replace(/; it was left untouched$/, '')}; it was left untouched (pass another --out, ` +
          `or remove it)`,
      );
    }
  }
  const stored = options.full ? undefined : readStoredLogbook(options.store.db, options.workspace);
  return { previous: stored, from: stored ? 'store' : null };
}

export async function runLogbook(options: RunLogbookOptions): Promise<RunLogbookResult> {
  const logger = options.logger ?? silentLogbookLogger;
  const timeoutMs = options.lockTimeoutMs ?? 30_000;
  const locks = [
    logbookLockPath(options.store.path, options.workspace),
    ...(options.out ? [`${options.out}.lock`] : []),
  ].map((path) =>
    acquireLock(path, {
      timeoutMs,
      command: `strata logbook ${options.workspace}`,
      onWait: (holder) =>
        logger.warn(`waiting for ${path}, held by ${describeHolder(holder)} (up to ${Math.round(timeoutMs / 1000)} s)`),
    }),
  );
  try {
    const { previous, from } = readPrevious(options);
    const result = await buildLogbook({ ...options, db: options.store.db, previous });
    const doc = result.document;
    let storeWritten = false;
    let fileWritten = false;
    const writeStore = result.changed || (from !== 'store' && !readStoredLogbook(options.store.db, options.workspace));
    const writeFile = options.out !== undefined && (result.changed || !existsSync(options.out));
    if (writeStore || writeFile) assertLogbook(doc, 'the logbook to write');
    if (writeStore) {
      writeLogbookRow(options.store.db, {
        workspace: doc.workspace,
        kind: options.selection.kind,
        data: formatJson(doc),
        events: doc.timeline.length,
        generatedAt: doc.generated_at,
        updatedAt: new Date().toISOString(),
      });
      storeWritten = true;
    }
    if (options.out && writeFile) {
      try {
        writeFileAtomic(options.out, formatLogbook(doc, options.format ?? 'json'));
      } catch (error) {
        throw new StrataError(
          'IO',
          `cannot write logbook ${options.out}: ${describeError(error)}; the previous file (if any) was left untouched`,
          { cause: error },
        );
      }
      fileWritten = true;
    }
    return { ...result, continuedFrom: from, storeWritten, fileWritten };
  } finally {
    for (const lock of locks.reverse()) lock.release();
  }
}
