// Owns the per-session statistics table (`session_stats`): recomputed from a session's own blocks each time
// ingest touches the session, so `strata index` only reads small precomputed rows.
import type { Database, Statement } from 'better-sqlite3';
import { classifyTool } from './tool-classes.js';
import { callEffects, metaFileEdits, type FileEdit } from './edit-stats.js';
import { toolInputJson } from '../../store/tool-input.js';
import { countSuccessfulCommits, prepareCommitStatements, type CommitStatements } from './commit-stats.js';

export interface OwnStats {
  bashCalls: number;
  webFetches: number;
  webSearches: number;
  linesAdded: number;
  linesRemoved: number;
  commits: number;
  /** path → work (lines added + removed, at least 1 per edit). */
  files: Record<string, number>;
  firstPrompt: string | null;
  /** Hashes of the successful commits (see commit-stats.ts). */
  commitHashes: string[];
}

export function emptyStats(): OwnStats {
  return { ...emptyCallStats(), firstPrompt: null, commitHashes: [] };
}

/**
 * The statistics a session's tool calls add up to. The ingest worker computes them from the inputs it has
 * just parsed (see core/ingest/prepare.ts), so that a session written whole by one file need not have its
 * calls read back and parsed again.
 */
export type CallStats = Omit<OwnStats, 'firstPrompt' | 'commitHashes'>;

export function emptyCallStats(): CallStats {
  // No prototype: a file named `constructor` or `toString` is a path like any other.
  return {
    bashCalls: 0,
    webFetches: 0,
    webSearches: 0,
    linesAdded: 0,
    linesRemoved: 0,
    commits: 0,
    files: Object.create(null) as Record<string, number>,
  };
}

/** Counts one tool call, given its stored input as parsed back (or the text when it has no input). */
export function addCall(stats: CallStats, toolName: string | null, input: unknown): void {
  const cls = classifyTool(toolName);
  if (cls === 'bash') stats.bashCalls++;
  else if (cls === 'fetch') stats.webFetches++;
  else if (cls === 'search') stats.webSearches++;
  const effects = callEffects(toolName, input);
  stats.commits += effects.commits;
  addEdits(stats, effects.edits);
}

/** Adds `from` into `into`. */
export function mergeCallStats(into: CallStats, from: CallStats): void {
  into.bashCalls += from.bashCalls;
  into.webFetches += from.webFetches;
  into.webSearches += from.webSearches;
  into.linesAdded += from.linesAdded;
  into.linesRemoved += from.linesRemoved;
  into.commits += from.commits;
  for (const [path, work] of Object.entries(from.files)) into.files[path] = (into.files[path] ?? 0) + work;
}

const FIRST_PROMPT_CHARS = 200;

/** Prompts looked at for a title: the first that a person typed wins. */
const TITLE_CANDIDATES = 8;

/**
 * False for text no person typed: a harness wrapper (`<tag>…`), JSON, Aider's `<blank>`. Text repeating
 * the injected instructions of its session is ruled out by the caller.
 */
export function isTypedText(text: string): boolean {
  const t = text.trim();
  if (t === '' || t === '<blank>' || /^<[\w-]+(?:\s[^<>]*)?>/.test(t)) return false;
  if (t.startsWith('{') || t.startsWith('[{') || t.startsWith('["')) {
    try {
      JSON.parse(t);
      return false;
    } catch {
      return true;
    }
  }
  return true;
}

function addEdits(stats: CallStats, edits: FileEdit[]): void {
  for (const e of edits) {
    stats.linesAdded += e.added;
    stats.linesRemoved += e.removed;
    stats.files[e.path] = (stats.files[e.path] ?? 0) + Math.max(1, e.added + e.removed);
  }
}

/** JSON text parsed, or the text itself when it is not JSON. */
export function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The input a stored tool call is counted with: its input parsed back, or its text when it has none. */
export function storedCallInput(toolInput: string | null, text: string): unknown {
  return toolInput === null ? text : parseJson(toolInputJson(toolInput, text));
}

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
  if (calls) {
    mergeCallStats(stats, calls);
  } else {
    for (const row of statements.calls.iterate(sessionId) as Iterable<{
      tool_name: string | null;
      tool_input: string | null;
      text: string;
    }>) {
      addCall(stats, row.tool_name, storedCallInput(row.tool_input, row.text));
    }
  }
  // Commands name commits; only their results say which succeeded (read only when a command names one).
  if (stats.commits > 0) {
    const outcome = countSuccessfulCommits(statements.commits, sessionId, storedCallInput);
    stats.commits = outcome.commits;
    stats.commitHashes = outcome.hashes;
  }
  for (const row of statements.metaFiles.all(sessionId) as { meta: string }[])
    addEdits(stats, metaFileEdits(parseJson(row.meta)));
  for (const { text } of statements.firstPrompt.iterate(sessionId) as Iterable<{ text: string }>) {
    if (!isTypedText(text) || statements.injected.get(sessionId, text.trim().slice(0, 200)) !== undefined) continue;
    stats.firstPrompt = text.replace(/\s+/g, ' ').trim().slice(0, FIRST_PROMPT_CHARS) || null;
    break;
  }
  return stats;
}

interface StatsStatements {
  injected: Statement;
  keepsHashes: boolean;
  commits: CommitStatements;
  calls: Statement;
  metaFiles: Statement;
  firstPrompt: Statement;
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

function prepare(db: Database): StatsStatements {
  return {
    keepsHashes: hasCommitHashes(db),
    commits: prepareCommitStatements(db),
    calls: db.prepare(`SELECT b.tool_name, b.tool_input, b.text FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND b.kind = 'tool_call'`),
    metaFiles: db.prepare(
      `SELECT meta FROM messages WHERE session_id = ? AND meta IS NOT NULL AND instr(meta, '"filesModified"') > 0`,
    ),
    firstPrompt: db.prepare(`SELECT b.text FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND m.kind = 'prompt' AND b.field = 'user' AND b.noise IS NULL AND length(trim(b.text)) > 0
      ORDER BY m.seq, b.idx LIMIT ${TITLE_CANDIDATES}`),
    injected: db.prepare(`SELECT 1 FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND b.noise IN ('agents_md', 'user_instructions', 'system-reminder') AND instr(b.text,
        ?) > 0 LIMIT 1`),
    upsert: db.prepare(
      hasCommitHashes(db)
        ? `INSERT INTO session_stats (session_id, bash_calls, web_fetches, web_searches, lines_added, lines_removed,
          commits, files, first_prompt, commit_hashes)
      VALUES (@id, @bashCalls, @webFetches, @webSearches, @linesAdded, @linesRemoved, @commits, @files,
        @firstPrompt, @commitHashes)
      ON CONFLICT (session_id) DO UPDATE SET bash_calls = excluded.bash_calls, web_fetches = excluded.web_fetches,
        web_searches = excluded.web_searches, lines_added = excluded.lines_added, lines_removed =
          excluded.lines_removed,
        commits = excluded.commits, files = excluded.files, first_prompt = excluded.first_prompt, commit_hashes =
          excluded.commit_hashes`
        : `INSERT INTO session_stats (session_id, bash_calls, web_fetches, web_searches, lines_added, lines_removed,
          commits, files, first_prompt)
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

/**
 * Recomputes and stores the statistics of the given sessions (call inside the ingest transaction).
 * `knownCalls` holds the added-up tool-call statistics of sessions whose every call the caller has seen.
 */
export function refreshSessionStats(
  db: Database,
  sessionIds: Iterable<number>,
  knownCalls?: ReadonlyMap<number, CallStats>,
): void {
  let statements = prepared.get(db);
  if (!statements) {
    statements = prepare(db);
    prepared.set(db, statements);
  }
  for (const id of sessionIds) {
    const s = computeOwnStats(db, id, statements, knownCalls?.get(id));
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
