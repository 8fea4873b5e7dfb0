// Owns scanning a store's texts again with the current secret rules, so a secret an older rule missed
// does not stay in it: blocks (and their full-text rows), titles, metadata, superseded versions, cached
// model replies and logbooks. Blocks go in batches of one transaction each, and a killed scan resumes.
import type { Database } from 'better-sqlite3';
import type { Store } from '../../store/db.js';
import { indexedTextOf } from '../../store/prepared-message.js';
import { acquireLock, type LockHolder } from '../../shared/file-lock.js';
import { REDACTION_RULES_VERSION, createRedactor, redactText, redactValue } from '../../shared/redact/index.js';

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export interface RescanOptions {
  /** Count what would change, write nothing. */
  dryRun?: boolean;
  lockPath?: string;
  lockTimeoutMs?: number;
  onLockWait?: (holder: LockHolder | undefined) => void;
  onProgress?: (done: number, total: number) => void;
  batchSize?: number;
}

export interface RescanReport {
  rulesBefore: string;
  rules: string;
  blocksScanned: number;
  /** Rows whose text changed, by table. */
  changed: Record<string, number>;
  secrets: number;
  byKind: Record<string, number>;
  dryRun: boolean;
}

interface State {
  rules: string;
  scan_next: number;
  scan_end: number | null;
}

const readState = (db: Database): State =>
  db.prepare('SELECT rules, scan_next, scan_end FROM redaction_state WHERE id = 1').get() as State;

/** True when stored texts were redacted with other rules than these, or a scan was interrupted. */
export function needsRescan(store: Pick<Store, 'db'>): boolean {
  const state = readState(store.db);
  return state.rules !== REDACTION_RULES_VERSION || state.scan_end !== null;
}

/** Blocks a scan would read: every block of a store scanned with older rules, or what an interrupted scan left. */
export function pendingBlocks(store: Store): number {
  const state = readState(store.db);
  if (state.rules === REDACTION_RULES_VERSION && state.scan_end === null) return 0;
  const end = state.scan_end ?? (store.db.prepare('SELECT COALESCE(MAX(id), 0) FROM blocks').pluck().get() as number);
  return store.db
    .prepare('SELECT COUNT(*) FROM blocks WHERE id > ? AND id <= ?')
    .pluck()
    .get(state.rules === REDACTION_RULES_VERSION ? state.scan_next : 0, end) as number;
}

class Tally {
  /** The ingest's redactor: it counts what it replaces, by kind. */
  readonly redactor = createRedactor();
  changed: Record<string, number> = {};

  /** `text` redacted (null stays null), counting what was found. */
  redact(text: string | null): string | null {
    return text === null || text.length === 0 ? text : this.redactor.redact(text);
  }

  /** A JSON text redacted so that it stays valid JSON (values are redacted one by one when needed). */
  redactJson(text: string | null): string | null {
    if (text === null) return text;
    const redacted = redactText(text).text;
    if (redacted === text) return text;
    // Found a secret (rare): the redactor runs again to count it.
    if (isJson(redacted)) return this.redactor.redact(text);
    try {
      return JSON.stringify(redactValue(JSON.parse(text), this.redactor));
    } catch {
      return this.redactor.redact(text);
    }
  }

  count(table: string): void {
    this.changed[table] = (this.changed[table] ?? 0) + 1;
  }
}

interface BlockRow {
  id: number;
  field: string;
  text: string;
  tool_input: string | null;
  meta: string | null;
}

/** Scans blocks in (from, end] in at most `maxBatches` batches; says how many were read and whether all were. */
function scanBlocks(
  store: Store,
  from: number,
  end: number,
  tally: Tally,
  options: RescanOptions,
  maxBatches: number,
): { done: number; complete: boolean } {
  const { db } = store;
  const batch = options.batchSize ?? 2000;
  const select = db.prepare<[number, number, number], BlockRow>(
    'SELECT id, field, text, tool_input, meta FROM blocks WHERE id > ? AND id <= ? ORDER BY id LIMIT ?',
  );
  const update = db.prepare('UPDATE blocks SET text = ?, tool_input = ?, meta = ? WHERE id = ?');
  const ftsRemove = db.prepare('DELETE FROM blocks_fts WHERE rowid = ?');
  const ftsInsert = db.prepare('INSERT INTO blocks_fts (rowid, text) VALUES (?, ?)');
  const indexedThrough = db.prepare('SELECT indexed_through FROM fts_state WHERE id = 1').pluck();
  const progress = db.prepare('UPDATE redaction_state SET scan_next = ? WHERE id = 1');
  const total = db.prepare('SELECT COUNT(*) FROM blocks WHERE id > ? AND id <= ?').pluck().get(from, end) as number;
  let next = from;
  let done = 0;
  const step = db.transaction((rows: BlockRow[]) => {
    const indexed = indexedThrough.get() as number;
    for (const row of rows) {
      const text = tally.redact(row.text)!;
      const toolInput = tally.redact(row.tool_input);
      const meta = tally.redactJson(row.meta);
      if (text === row.text && toolInput === row.tool_input && meta === row.meta) continue;
      tally.count('blocks');
      if (options.dryRun) continue;
      update.run(text, toolInput, meta, row.id);
      // Blocks past indexed_through are indexed by the next ingest, from their new text.
      if (text !== row.text && row.id <= indexed) {
        ftsRemove.run(row.id);
        ftsInsert.run(row.id, indexedTextOf(text, row.field as Parameters<typeof indexedTextOf>[1]));
      }
    }
    if (!options.dryRun) progress.run(rows[rows.length - 1]!.id);
  });
  for (let batches = 0; ; batches++) {
    const rows = select.all(next, end, batch);
    if (rows.length === 0) break;
    if (batches >= maxBatches) return { done, complete: false };
    step(rows);
    next = rows[rows.length - 1]!.id;
    done += rows.length;
    options.onProgress?.(done, total);
  }
  return { done, complete: true };
}

/** Redacts one text column of a table: read by a cursor, only the changed rows are held and written. */
function scanColumn(db: Database, target: ColumnTarget, tally: Tally, dryRun: boolean): void {
  const { table, key, column, json } = target;
  const changes: [string, unknown][] = [];
  const select = db.prepare(`SELECT ${key} AS id, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL`);
  for (const row of select.iterate() as Iterable<{ id: unknown; value: string }>) {
    const value = json ? tally.redactJson(row.value) : tally.redact(row.value);
    if (value === row.value) continue;
    tally.count(table);
    changes.push([value!, row.id]);
  }
  if (dryRun || changes.length === 0) return;
  const update = db.prepare(`UPDATE ${table} SET ${column} = ? WHERE ${key} = ?`);
  db.transaction(() => {
    for (const [value, id] of changes) update.run(value, id);
  })();
}

interface ColumnTarget {
  table: string;
  key: string;
  column: string;
  json: boolean;
}

/** Other texts that leave strata. */
const OTHER_COLUMNS: ColumnTarget[] = [
  { table: 'sessions', key: 'id', column: 'title', json: false },
  { table: 'sessions', key: 'id', column: 'meta', json: true },
  { table: 'messages', key: 'id', column: 'meta', json: true },
  { table: 'session_stats', key: 'session_id', column: 'first_prompt', json: false },
  { table: 'session_listing', key: 'session_id', column: 'shown_title', json: false },
  { table: 'message_versions', key: 'id', column: 'blocks', json: true },
  { table: 'llm_cache', key: 'key', column: 'reply_text', json: false },
  { table: 'logbooks', key: 'workspace', column: 'data', json: true },
];

/** How far a bounded scan got: `complete` once every stored text has been read with the current rules. */
export interface RescanSlice {
  blocksScanned: number;
  complete: boolean;
}

/**
 * Scans with the current rules, the caller holding the writer lock, reading at most `maxBatches` batches of
 * blocks (the other texts are read with the last batch). A scan cut short resumes where it stopped.
 */
function scanUnderLock(store: Store, tally: Tally, options: RescanOptions, maxBatches = Infinity): RescanSlice {
  const { db } = store;
  const before = readState(db);
  const resuming = before.rules === REDACTION_RULES_VERSION && before.scan_end !== null;
  const from = resuming ? before.scan_next : 0;
  const end = resuming
    ? before.scan_end!
    : (db.prepare('SELECT COALESCE(MAX(id), 0) FROM blocks').pluck().get() as number);
  if (!options.dryRun && !resuming) {
    db.prepare('UPDATE redaction_state SET rules = ?, scan_next = 0, scan_end = ? WHERE id = 1').run(
      REDACTION_RULES_VERSION,
      end,
    );
  }
  const scanned = scanBlocks(store, from, end, tally, options, maxBatches);
  if (!scanned.complete) return { blocksScanned: scanned.done, complete: false };
  for (const target of OTHER_COLUMNS) scanColumn(db, target, tally, Boolean(options.dryRun));
  if (!options.dryRun) db.prepare('UPDATE redaction_state SET scan_next = 0, scan_end = NULL WHERE id = 1').run();
  return { blocksScanned: scanned.done, complete: true };
}

/**
 * One bounded step of the scan for a writer that already holds the lock (a hook, the watcher, the MCP
 * refresh): nothing when the store is current, else at most `maxBatches` batches of blocks.
 */
export function rescanSlice(store: Store, maxBatches: number, batchSize?: number): RescanSlice & { secrets: number } {
  if (!needsRescan(store)) return { blocksScanned: 0, complete: true, secrets: 0 };
  const tally = new Tally();
  const slice = scanUnderLock(store, tally, batchSize ? { batchSize } : {}, maxBatches);
  return { ...slice, secrets: tally.redactor.count };
}

/**
 * Scans the store with the current rules and records them. Blocks redacted with the current rules
 * already (written after the last scan began) are not read again.
 */
export function rescanStore(store: Store, options: RescanOptions = {}): RescanReport {
  const lock = options.dryRun
    ? undefined
    : acquireLock(options.lockPath ?? `${store.path}.lock`, {
        timeoutMs: options.lockTimeoutMs ?? 30_000,
        onWait: options.onLockWait,
      });
  try {
    const before = readState(store.db);
    const tally = new Tally();
    const { blocksScanned } = scanUnderLock(store, tally, options);
    return {
      rulesBefore: before.rules,
      rules: REDACTION_RULES_VERSION,
      blocksScanned,
      changed: tally.changed,
      secrets: tally.redactor.count,
      byKind: { ...tally.redactor.byKind },
      dryRun: Boolean(options.dryRun),
    };
  } finally {
    lock?.release();
  }
}
