// Owns the per-session statistics table (`session_stats`), rows derived from a session's own blocks: computed
// whole for a session new to the store or re-read, and for a session only appended to, its stored row plus
// what the appended blocks add. `strata index` then only reads small precomputed rows.
import type { Database, Statement } from 'better-sqlite3';
import { metaFileEdits } from '../shared/tool-calls/edit-stats.js';
import {
  addCall,
  addEdits,
  emptyCallStats,
  isTypedText,
  mergeCallStats,
  parseJson,
  type CallStats,
} from '../shared/tool-calls/call-stats.js';
import { toolInputJson } from './tool-input.js';
import { refreshActivityDays } from './activity-days.js';
import {
  countSuccessfulCommits,
  prepareCommitStatements,
  type AppendedFrom,
  type CommitStatements,
} from './commit-stats.js';

export type { AppendedFrom } from './commit-stats.js';

export interface OwnStats extends CallStats {
  firstPrompt: string | null;
  /** Hashes of the successful commits (see commit-stats.ts). */
  commitHashes: string[];
}

export function emptyStats(): OwnStats {
  return { ...emptyCallStats(), firstPrompt: null, commitHashes: [] };
}

const FIRST_PROMPT_CHARS = 200;

/** Prompts looked at for a title: the first that a person typed wins. */
const TITLE_CANDIDATES = 8;

/** The input a stored tool call is counted with: its input parsed back, or its text when it has none. */
export function storedCallInput(toolInput: string | null, text: string): unknown {
  return toolInput === null ? text : parseJson(toolInputJson(toolInput, text));
}

/** What the caller knows of the sessions to refresh, so that less is read back. */
export interface KnownStats {
  /** The added-up tool-call statistics of sessions whose every call the caller has seen. */
  calls?: ReadonlyMap<number, CallStats>;
  /** Sessions only appended to since their stored row was computed, with the first ids appended. */
  appended?: ReadonlyMap<number, AppendedFrom>;
}

type CallRow = { tool_name: string | null; tool_input: string | null; text: string };

/**
 * Computes one session's own statistics (subagents are added at listing time). `calls`, when given, are
 * its tool calls' statistics already added up (every call of the session), so they are not read back.
 */
export function computeOwnStats(
  db: Database,
  sessionId: number,
  statements = prepare(db),
  calls?: CallStats,
): OwnStats {
  const stats = emptyStats();
  if (calls) mergeCallStats(stats, calls);
  else
    for (const row of statements.calls.iterate(sessionId) as Iterable<CallRow>)
      addCall(stats, row.tool_name, storedCallInput(row.tool_input, row.text));
  // Commands name commits; only their results say which succeeded (read only when a command names one).
  if (stats.commits > 0) {
    const outcome = countSuccessfulCommits(statements.commits, sessionId, storedCallInput)!;
    stats.commits = outcome.commits;
    stats.commitHashes = outcome.hashes;
  }
  for (const row of statements.metaFiles.all(sessionId) as { meta: string }[])
    addEdits(stats, metaFileEdits(parseJson(row.meta)));
  stats.firstPrompt = firstPrompt(statements, sessionId);
  return stats;
}

function firstPrompt(statements: StatsStatements, sessionId: number): string | null {
  for (const { text } of statements.firstPrompt.iterate(sessionId) as Iterable<{ text: string }>) {
    if (!isTypedText(text) || statements.injected.get(sessionId, text.trim().slice(0, 200)) !== undefined) continue;
    return text.replace(/\s+/g, ' ').trim().slice(0, FIRST_PROMPT_CHARS) || null;
  }
  // A subagent has no typed prompt: the task its parent gave it names it best.
  const task = statements.sidechainTask.get(sessionId) as string | undefined;
  return task?.replace(/\s+/g, ' ').trim().slice(0, FIRST_PROMPT_CHARS) || null;
}

interface StoredStats {
  bash_calls: number;
  web_fetches: number;
  web_searches: number;
  lines_added: number;
  lines_removed: number;
  commits: number;
  files: string;
  commit_hashes: string;
}

/**
 * A session's statistics from its stored row and the blocks appended from `from` on; undefined when they
 * must be computed whole (no stored row, or an appended result completes an older commit call).
 */
function appendedStats(statements: StatsStatements, sessionId: number, from: AppendedFrom): OwnStats | undefined {
  if (!statements.keepsHashes) return undefined;
  const row = statements.stored.get(sessionId) as StoredStats | undefined;
  if (!row || completesOlderCommit(statements, sessionId, from.block)) return undefined;
  const added = emptyCallStats();
  for (const call of statements.callsFrom.iterate(from.block, sessionId) as Iterable<CallRow>)
    addCall(added, call.tool_name, storedCallInput(call.tool_input, call.text));
  let commits = row.commits;
  const commitHashes = JSON.parse(row.commit_hashes) as string[];
  if (added.commits > 0) {
    const outcome = countSuccessfulCommits(statements.commits, sessionId, storedCallInput, from);
    if (!outcome) return undefined;
    commits += outcome.commits;
    commitHashes.push(...outcome.hashes);
  }
  for (const meta of statements.metaFilesFrom.all(from.message, sessionId) as { meta: string }[])
    addEdits(added, metaFileEdits(parseJson(meta.meta)));
  const files = emptyCallStats().files;
  for (const [path, work] of Object.entries(JSON.parse(row.files) as Record<string, number>)) files[path] = work;
  const stats: OwnStats = {
    bashCalls: row.bash_calls,
    webFetches: row.web_fetches,
    webSearches: row.web_searches,
    linesAdded: row.lines_added,
    linesRemoved: row.lines_removed,
    commits: 0,
    files,
    firstPrompt: firstPrompt(statements, sessionId),
    commitHashes,
  };
  mergeCallStats(stats, added);
  stats.commits = commits;
  return stats;
}

/** True when a result appended from `fromBlock` on answers a commit call stored before it. */
function completesOlderCommit(statements: StatsStatements, sessionId: number, fromBlock: number): boolean {
  for (const callId of statements.resultsFrom.iterate(fromBlock, sessionId) as Iterable<string>)
    if (statements.olderCommitCall.get(sessionId, callId, fromBlock) !== undefined) return true;
  return false;
}

interface StatsStatements {
  injected: Statement;
  keepsHashes: boolean;
  commits: CommitStatements;
  calls: Statement;
  callsFrom: Statement;
  metaFiles: Statement;
  metaFilesFrom: Statement;
  firstPrompt: Statement;
  sidechainTask: Statement;
  stored: Statement;
  resultsFrom: Statement;
  olderCommitCall: Statement;
  upsert: Statement;
}

/** A store before schema 10 (only built by tests that write old schemas) keeps no commit hashes. */
function hasCommitHashes(db: Database): boolean {
  return (
    (db
      .prepare("SELECT COUNT(*) FROM pragma_table_info('session_stats') WHERE name = 'commit_hashes'")
      .pluck()
      .get() as number) === 1
  );
}

const CALLS = `SELECT b.tool_name, b.tool_input, b.text FROM messages m JOIN blocks b ON b.message_id = m.id
  WHERE m.session_id = ? AND b.kind = 'tool_call'`;
const FILES_MODIFIED = `meta IS NOT NULL AND instr(meta, '"filesModified"') > 0`;

function prepare(db: Database): StatsStatements {
  const keepsHashes = hasCommitHashes(db);
  return {
    keepsHashes,
    commits: prepareCommitStatements(db),
    calls: db.prepare(CALLS),
    // The appended rows are read by their id range (few), not through every message of the session.
    callsFrom:
      db.prepare(`SELECT b.tool_name, b.tool_input, b.text FROM blocks b CROSS JOIN messages m ON m.id = b.message_id
      WHERE b.id >= ? AND m.session_id = ? AND b.kind = 'tool_call'`),
    metaFiles: db.prepare(`SELECT meta FROM messages WHERE session_id = ? AND ${FILES_MODIFIED}`),
    metaFilesFrom: db.prepare(`SELECT meta FROM messages WHERE id >= ? AND +session_id = ? AND ${FILES_MODIFIED}`),
    firstPrompt: db.prepare(`SELECT b.text FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND m.kind = 'prompt' AND b.field = 'user' AND b.noise IS NULL AND length(trim(b.text)) > 0
      ORDER BY m.seq, b.idx LIMIT ${TITLE_CANDIDATES}`),
    sidechainTask: db
      .prepare(`SELECT b.text FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND m.is_sidechain = 1 AND m.role = 'user' AND b.field IN ('user', 'system')
      AND b.noise IS NULL AND length(trim(b.text)) > 0 ORDER BY m.seq, b.idx LIMIT 1`)
      .pluck(),
    injected: db.prepare(`SELECT 1 FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND b.noise IN ('agents_md', 'user_instructions', 'system-reminder')
      AND instr(b.text, ?) > 0 LIMIT 1`),
    stored: db.prepare('SELECT * FROM session_stats WHERE session_id = ?'),
    // An appended result of a commit call stored before: that call's outcome changes (computed whole then).
    resultsFrom: db
      .prepare(`SELECT r.tool_call_id FROM blocks r CROSS JOIN messages m ON m.id = r.message_id
      WHERE r.id >= ? AND m.session_id = ? AND r.kind = 'tool_result' AND r.tool_call_id IS NOT NULL`)
      .pluck(),
    olderCommitCall: db.prepare(`SELECT 1 FROM messages m JOIN blocks c ON c.message_id = m.id WHERE m.session_id = ?
      AND c.tool_call_id = ? AND c.kind = 'tool_call' AND c.id < ? AND instr(c.text, 'commit') > 0 LIMIT 1`),
    upsert: db.prepare(
      keepsHashes
        ? `INSERT INTO session_stats (session_id, bash_calls, web_fetches, web_searches, lines_added,
          lines_removed, commits, files, first_prompt, commit_hashes)
      VALUES (@id, @bashCalls, @webFetches, @webSearches, @linesAdded, @linesRemoved, @commits, @files,
        @firstPrompt, @commitHashes)
      ON CONFLICT (session_id) DO UPDATE SET bash_calls = excluded.bash_calls, web_fetches = excluded.web_fetches,
        web_searches = excluded.web_searches, lines_added = excluded.lines_added, lines_removed =
          excluded.lines_removed,
        commits = excluded.commits, files = excluded.files, first_prompt = excluded.first_prompt, commit_hashes =
          excluded.commit_hashes`
        : `INSERT INTO session_stats (session_id, bash_calls, web_fetches, web_searches, lines_added,
          lines_removed, commits, files, first_prompt)
      VALUES (@id, @bashCalls, @webFetches, @webSearches, @linesAdded, @linesRemoved, @commits, @files, @firstPrompt)
      ON CONFLICT (session_id) DO UPDATE SET bash_calls = excluded.bash_calls, web_fetches = excluded.web_fetches,
        web_searches = excluded.web_searches, lines_added = excluded.lines_added, lines_removed =
          excluded.lines_removed,
        commits = excluded.commits, files = excluded.files, first_prompt = excluded.first_prompt`,
    ),
  };
}

const prepared = new WeakMap<Database, StatsStatements>();

/** Files in path order, so that the stored JSON does not depend on the order calls were read in. */
function sortedFiles(files: Record<string, number>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/** Computes and stores the statistics of the given sessions (call inside the ingest transaction). */
export function refreshSessionStats(db: Database, sessionIds: Iterable<number>, known: KnownStats = {}): void {
  let statements = prepared.get(db);
  if (!statements) {
    statements = prepare(db);
    prepared.set(db, statements);
  }
  for (const id of sessionIds) {
    const calls = known.calls?.get(id);
    const from = calls ? undefined : known.appended?.get(id);
    const s = (from && appendedStats(statements, id, from)) || computeOwnStats(db, id, statements, calls);
    refreshActivityDays(db, id, from);
    const { commitHashes, ...row } = s;
    statements.upsert.run({
      id,
      ...row,
      files: sortedFiles(s.files),
      ...(statements.keepsHashes ? { commitHashes: JSON.stringify(commitHashes) } : {}),
    });
  }
}

/** Recomputes the statistics of every session. */
export function rebuildAllSessionStats(db: Database): void {
  const ids = (db.prepare('SELECT id FROM sessions').all() as { id: number }[]).map((r) => r.id);
  db.transaction(() => refreshSessionStats(db, ids))();
}

/**
 * Computes the statistics of sessions that have none yet (stores ingested before the retrieval schema
 * existed). Cheap when nothing is missing: one indexed anti-join.
 */
export function ensureSessionStats(db: Database): number {
  if (db.readonly) return 0;
  const ids = (
    db
      .prepare(
        'SELECT s.id FROM sessions s LEFT JOIN session_stats t ON t.session_id = s.id WHERE t.session_id IS NULL',
      )
      .all() as { id: number }[]
  ).map((r) => r.id);
  if (ids.length > 0) db.transaction(() => refreshSessionStats(db, ids))();
  return ids.length;
}
