// Owns the per-session statistics table (`session_stats`): recomputed from a session's own blocks each time
// ingest touches the session, so `strata index` only reads small precomputed rows.
import type { Database, Statement } from 'better-sqlite3';
import { classifyTool } from './tool-classes.js';
import { callEffects, metaFileEdits, type FileEdit } from './edit-stats.js';
import { toolInputJson } from '../../store/tool-input.js';

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
}

export function emptyStats(): OwnStats {
  return { bashCalls: 0, webFetches: 0, webSearches: 0, linesAdded: 0, linesRemoved: 0, commits: 0, files: {}, firstPrompt: null };
}

const FIRST_PROMPT_CHARS = 200;

function addEdits(stats: OwnStats, edits: FileEdit[]): void {
  for (const e of edits) {
    stats.linesAdded += e.added;
    stats.linesRemoved += e.removed;
    stats.files[e.path] = (stats.files[e.path] ?? 0) + Math.max(1, e.added + e.removed);
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Computes one session's own statistics (subagents are added at listing time). */
export function computeOwnStats(db: Database, sessionId: number, statements = prepare(db)): OwnStats {
  const stats = emptyStats();
  for (const row of statements.calls.iterate(sessionId) as Iterable<{ tool_name: string | null; tool_input: string | null; text: string }>) {
    const cls = classifyTool(row.tool_name);
    if (cls === 'bash') stats.bashCalls++;
    else if (cls === 'fetch') stats.webFetches++;
    else if (cls === 'search') stats.webSearches++;
    const input = row.tool_input === null ? row.text : parseJson(toolInputJson(row.tool_input, row.text));
    const effects = callEffects(row.tool_name, input);
    stats.commits += effects.commits;
    addEdits(stats, effects.edits);
  }
  for (const row of statements.metaFiles.all(sessionId) as { meta: string }[]) addEdits(stats, metaFileEdits(parseJson(row.meta)));
  const first = statements.firstPrompt.get(sessionId) as { text: string } | undefined;
  if (first) stats.firstPrompt = first.text.replace(/\s+/g, ' ').trim().slice(0, FIRST_PROMPT_CHARS) || null;
  return stats;
}

interface StatsStatements {
  calls: Statement;
  metaFiles: Statement;
  firstPrompt: Statement;
  upsert: Statement;
}

function prepare(db: Database): StatsStatements {
  return {
    calls: db.prepare(`SELECT b.tool_name, b.tool_input, b.text FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND b.kind = 'tool_call'`),
    metaFiles: db.prepare(`SELECT meta FROM messages WHERE session_id = ? AND meta IS NOT NULL AND instr(meta, '"filesModified"') > 0`),
    firstPrompt: db.prepare(`SELECT b.text FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND m.kind = 'prompt' AND b.field = 'user' AND b.noise IS NULL AND length(trim(b.text)) > 0
      ORDER BY m.seq, b.idx LIMIT 1`),
    upsert: db.prepare(`INSERT INTO session_stats (session_id, bash_calls, web_fetches, web_searches, lines_added, lines_removed, commits, files, first_prompt)
      VALUES (@id, @bashCalls, @webFetches, @webSearches, @linesAdded, @linesRemoved, @commits, @files, @firstPrompt)
      ON CONFLICT (session_id) DO UPDATE SET bash_calls = excluded.bash_calls, web_fetches = excluded.web_fetches,
        web_searches = excluded.web_searches, lines_added = excluded.lines_added, lines_removed = excluded.lines_removed,
        commits = excluded.commits, files = excluded.files, first_prompt = excluded.first_prompt`),
  };
}

const prepared = new WeakMap<Database, StatsStatements>();

/** Recomputes and stores the statistics of the given sessions (call inside the ingest transaction). */
export function refreshSessionStats(db: Database, sessionIds: Iterable<number>): void {
  let statements = prepared.get(db);
  if (!statements) {
    statements = prepare(db);
    prepared.set(db, statements);
  }
  for (const id of sessionIds) {
    const s = computeOwnStats(db, id, statements);
    statements.upsert.run({ id, ...s, files: JSON.stringify(s.files) });
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
  const ids = (db.prepare('SELECT s.id FROM sessions s LEFT JOIN session_stats t ON t.session_id = s.id WHERE t.session_id IS NULL').all() as { id: number }[]).map((r) => r.id);
  if (ids.length > 0) db.transaction(() => refreshSessionStats(db, ids))();
  return ids.length;
}
