// Owns `session_days`: each session's messages and tool calls per day of their own timestamp ('' for none),
// written with the session's statistics, so the Activity page adds up small rows instead of every message
// and block. A session only appended to adds its appended messages and calls; any other is counted whole.
// Also `session_model_tokens`: the session's token usage summed per model ('' for none), recounted whole.
import type { Database, Statement } from 'better-sqlite3';

const DAY = "COALESCE(substr(m.timestamp, 1, 10), '')";
const ADD = `ON CONFLICT (session_id, day) DO UPDATE SET messages = messages + excluded.messages,
  tool_calls = tool_calls + excluded.tool_calls`;

/** Adds to `session_days` the messages selected by `where` (over messages m), per session and day. */
export const ADD_MESSAGES = (where: string, from = 'messages m') => `INSERT INTO session_days (session_id, day,
    messages, tool_calls)
  SELECT m.session_id, ${DAY}, COUNT(*), 0 FROM ${from} WHERE ${where} GROUP BY 1, 2 ${ADD}`;

/** A session's appended messages, read by id range. NOT INDEXED keeps the planner from scanning every message
 * in messages_seq order for the GROUP BY, which made each ingested file cost the whole table. */
export const ADD_APPENDED_MESSAGES = ADD_MESSAGES('m.id >= ? AND m.session_id = ?', 'messages m NOT INDEXED');

/** Adds to `session_days` the tool calls selected by `where` (over blocks b and their messages m). */
export const ADD_CALLS = (from: string, where: string) => `INSERT INTO session_days (session_id, day, messages,
    tool_calls)
  SELECT m.session_id, ${DAY}, 0, COUNT(*) FROM ${from} WHERE b.kind = 'tool_call' AND ${where} GROUP BY 1, 2 ${ADD}`;

/** Sums `usage` per session and model into `session_model_tokens`, for the sessions `where` selects. */
export const ADD_MODEL_TOKENS = (where: string) => `INSERT INTO session_model_tokens (session_id, model,
    input_tokens, output_tokens, cache_read_tokens, cache_write_tokens)
  SELECT session_id, COALESCE(model, ''), SUM(input_tokens), SUM(output_tokens), SUM(cache_read_tokens),
    SUM(cache_write_tokens) FROM usage WHERE ${where} GROUP BY 1, 2`;

interface DayStatements {
  clear: Statement;
  messages: Statement;
  calls: Statement;
  messagesFrom: Statement;
  callsFrom: Statement;
  clearModels: Statement;
  models: Statement;
}

const prepared = new WeakMap<Database, DayStatements>();

function statements(db: Database): DayStatements {
  let s = prepared.get(db);
  if (!s) {
    s = {
      clear: db.prepare('DELETE FROM session_days WHERE session_id = ?'),
      messages: db.prepare(ADD_MESSAGES('m.session_id = ?')),
      calls: db.prepare(ADD_CALLS('messages m JOIN blocks b ON b.message_id = m.id', 'm.session_id = ?')),
      // Appended rows have the highest ids: read by id range (few), not through the whole session.
      messagesFrom: db.prepare(ADD_APPENDED_MESSAGES),
      callsFrom: db.prepare(
        ADD_CALLS('blocks b CROSS JOIN messages m ON m.id = b.message_id', 'b.id >= ? AND m.session_id = ?'),
      ),
      clearModels: db.prepare('DELETE FROM session_model_tokens WHERE session_id = ?'),
      models: db.prepare(ADD_MODEL_TOKENS('session_id = ?')),
    };
    prepared.set(db, s);
  }
  return s;
}

/** Recounts a session's days; `appended` (the first appended message and block ids) adds only those. */
export function refreshActivityDays(
  db: Database,
  sessionId: number,
  appended?: { message: number; block: number },
): void {
  const s = statements(db);
  // A few rows per session, read by the usage table's key: recounted whole, appended or not.
  s.clearModels.run(sessionId);
  s.models.run(sessionId);
  if (appended) {
    s.messagesFrom.run(appended.message, sessionId);
    s.callsFrom.run(appended.block, sessionId);
    return;
  }
  s.clear.run(sessionId);
  s.messages.run(sessionId);
  s.calls.run(sessionId);
}
