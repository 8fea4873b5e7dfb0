// Owns "which stored sessions are the caller itself", so a session never finds its own words: the id its
// client names (hook payload, or the environment a client gives its MCP servers and tools), else the
// newest session of the transcript the hook names; with the subagent sessions of each.
import type { Database } from 'better-sqlite3';
import type { Env } from '../../shared/paths.js';
import { cachedStatement } from '../../store/statement-cache.js';

/**
 * Environment variables naming the running session: strata's own override, Claude Code (given to stdio
 * MCP servers since 2.1.154, to hooks and tools), Codex (given to tools; to MCP servers when forwarded),
 * Gemini CLI (given to hooks).
 */
export const SESSION_ENV_VARS = [
  'STRATA_SESSION_ID',
  'CLAUDE_CODE_SESSION_ID',
  'CODEX_THREAD_ID',
  'GEMINI_SESSION_ID',
] as const;

export interface CallerHint {
  sessionId?: string | undefined;
  transcriptPath?: string | undefined;
}

/** External ids of the calling session and its subagents, as stored (empty when none is known or stored). */
export function callingSessionIds(db: Database, env: Env, hint: CallerHint = {}): Set<string> {
  const named = [hint.sessionId, ...SESSION_ENV_VARS.map((name) => env[name])].filter(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  const ids = new Set<number>();
  const byExternal = cachedStatement(db, 'SELECT id FROM sessions WHERE external_id = ?').pluck(true);
  for (const id of named) for (const row of byExternal.all(id) as number[]) ids.add(row);
  // The transcript stands for the session only when nothing names it (a named, unstored session is new).
  if (named.length === 0 && hint.transcriptPath) {
    const newest = db
      .prepare<[string], number>(
        `SELECT s.id FROM sessions s JOIN session_sources ss ON ss.session_id = s.id
        JOIN sources f ON f.id = ss.source_id
        WHERE f.path = ? AND s.parent_id IS NULL ORDER BY s.started_at DESC, s.id DESC LIMIT 1`,
      )
      .pluck()
      .get(hint.transcriptPath);
    if (newest !== undefined) ids.add(newest);
  }
  if (ids.size === 0) return new Set();
  const list = [...ids];
  const marks = list.map(() => '?').join(',');
  const rows = db
    .prepare(`SELECT external_id FROM sessions WHERE id IN (${marks}) OR parent_id IN (${marks})`)
    .pluck()
    .all(...list, ...list) as string[];
  return new Set(rows);
}
