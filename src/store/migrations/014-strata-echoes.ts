// Owns marking strata's own output already stored (its MCP calls and their results, the context its hook
// injected) with the noise class `strata`, as the ingest now does. Nothing is deleted: blocks are only
// marked, and the statistics and listing rows of the sessions concerned are dropped (recomputed on read).
import type { Database } from 'better-sqlite3';
import type { Migration } from './types.js';
import { STRATA_NOISE, strataEchoNoise } from '../../shared/strata-echo.js';

export const strataEchoesMigration: Migration = {
  version: 14,
  name: 'strata-echoes',
  up(db) {
    db.function('strata_echo', { deterministic: true }, (kind, text, toolName, meta) => {
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = typeof meta === 'string' ? (JSON.parse(meta) as Record<string, unknown>) : undefined;
      } catch {
        parsed = undefined;
      }
      const block = { kind: String(kind), text: String(text ?? ''), toolName: toolName as string | null };
      return strataEchoNoise({ ...block, meta: parsed }) ?? null;
    });
    // Only rows that can be strata's reach the function: a name or server naming strata, a "(strata)" heading.
    db.exec(`
      CREATE TEMP TABLE strata_marked (id INTEGER PRIMARY KEY);
      INSERT INTO strata_marked SELECT id FROM blocks
        WHERE ((kind IN ('tool_call', 'tool_result') AND (instr(tool_name, 'strata') > 0 OR instr(meta, 'strata') > 0))
          OR (kind IN ('text', 'system') AND instr(substr(text, 1, 400), '(strata)') > 0))
          AND strata_echo(kind, text, tool_name, meta) IS NOT NULL;
      INSERT OR IGNORE INTO strata_marked SELECT r.id FROM blocks r JOIN messages rm ON rm.id = r.message_id
        WHERE r.kind = 'tool_result' AND r.tool_call_id IS NOT NULL AND EXISTS (
          SELECT 1 FROM blocks c JOIN strata_marked s ON s.id = c.id JOIN messages cm ON cm.id = c.message_id
          WHERE c.tool_call_id = r.tool_call_id AND c.kind = 'tool_call' AND cm.session_id = rm.session_id);
      UPDATE blocks SET noise = '${STRATA_NOISE}' WHERE id IN (SELECT id FROM strata_marked);
      CREATE TEMP TABLE strata_sessions AS SELECT DISTINCT m.session_id AS id FROM strata_marked s
        JOIN blocks b ON b.id = s.id JOIN messages m ON m.id = b.message_id;
      DELETE FROM session_stats WHERE session_id IN (SELECT id FROM strata_sessions);
      DELETE FROM session_listing WHERE session_id IN (SELECT id FROM strata_sessions)
        OR session_id IN (SELECT parent_id FROM sessions WHERE id IN (SELECT id FROM strata_sessions));
      DROP TABLE strata_sessions;
      DROP TABLE strata_marked;
    `);
    markGeminiContext(db);
  },
};

/**
 * Gemini CLI's `<session_context>` and `<hook_context>` user parts were stored as prompts: marked as that
 * context, records holding nothing else made context, and the sources read again on the next ingest (the
 * project then comes from `.project_root`).
 */
function markGeminiContext(db: Database): void {
  db.exec(`
    CREATE TEMP TABLE gemini_sessions AS SELECT id FROM sessions WHERE agent = 'gemini';
    UPDATE blocks SET noise = CASE WHEN instr(ltrim(text, ' ' || char(9, 10, 13)), '<session_context>') = 1
        THEN 'session_context' ELSE 'hook_context' END
      WHERE noise IS NULL AND kind = 'text'
        AND (instr(ltrim(text, ' ' || char(9, 10, 13)), '<session_context>') = 1
          OR instr(ltrim(text, ' ' || char(9, 10, 13)), '<hook_context>') = 1)
        AND message_id IN (SELECT m.id FROM messages m WHERE m.role = 'user'
          AND m.session_id IN (SELECT id FROM gemini_sessions));
    UPDATE messages SET kind = 'meta' WHERE kind = 'prompt' AND session_id IN (SELECT id FROM gemini_sessions)
      AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.message_id = messages.id AND b.kind = 'text' AND b.noise IS NULL)
      AND EXISTS (SELECT 1 FROM blocks b WHERE b.message_id = messages.id
        AND b.noise IN ('session_context', 'hook_context', '${STRATA_NOISE}'));
    UPDATE sessions SET prompt_count = (SELECT COUNT(*) FROM messages m WHERE m.session_id = sessions.id
      AND m.kind = 'prompt') WHERE id IN (SELECT id FROM gemini_sessions);
    DELETE FROM session_stats WHERE session_id IN (SELECT id FROM gemini_sessions);
    DELETE FROM session_listing WHERE session_id IN (SELECT id FROM gemini_sessions);
    UPDATE sources SET mtime_ms = 0 WHERE agent = 'gemini';
    DROP TABLE gemini_sessions;
  `);
}
