// Owns the SQL of the session writer, as typed prepared statements (one set per writer and connection).
import type { Database, Statement } from 'better-sqlite3';
import type { StoredText } from './prepared-message.js';

/** The upserted title replaces the stored one: it is set, and its parse's messages reach at least as late. */
const NEWER_TITLE = `excluded.title IS NOT NULL AND (sessions.title IS NULL OR excluded.title_at IS NULL
  OR sessions.title_at IS NULL OR excluded.title_at >= sessions.title_at)`;

export interface SessionRowParams {
  agent: string;
  key: string;
  project: string | null;
  gitBranch: string | null;
  title: string | null;
  titleAt: string | null;
  parentKey: string | null;
  relation: string | null;
  meta: string | null;
  now: string;
}

/** What the writer knows of a stored message it looked up. */
export interface StoredMessage {
  id: number;
  content_hash: string | null;
  archived: number;
  source_id: number | null;
}

type InsertMessageParams = [
  sessionId: number,
  key: string,
  seq: number,
  role: string,
  kind: string,
  timestamp: string | null,
  model: string | null,
  sourceId: number,
  line: number,
  sidechain: 0 | 1,
  hash: string | null,
  meta: StoredText | null,
];

type InsertBlockParams = [
  messageId: number,
  idx: number,
  kind: string,
  field: string,
  text: StoredText,
  toolName: string | null,
  toolCallId: string | null,
  toolInput: StoredText | null,
  isError: 0 | 1,
  noise: string | null,
  meta: StoredText | null,
];

export interface RewriteParams {
  id: number;
  role: string;
  kind: string;
  timestamp: string | null;
  model: string | null;
  sourceId: number;
  line: number;
  sidechain: 0 | 1;
  hash: string | null;
  meta: StoredText | null;
}

type UsageParams = [
  sessionId: number,
  apiMessageId: string,
  model: string | null,
  input: number,
  output: number,
  cacheRead: number,
  cacheWrite: number,
];

export interface WriterStatements {
  begin: Statement<[]>;
  commit: Statement<[]>;
  rollback: Statement<[]>;
  upsertSession: Statement<[SessionRowParams], { id: number }>;
  linkSource: Statement<[sessionId: number, sourceId: number]>;
  maxSeq: Statement<[sessionId: number], number>;
  findMessage: Statement<[sessionId: number, key: string], StoredMessage>;
  insertMessage: Statement<InsertMessageParams>;
  mergeMessage: Statement<[{ id: number; timestamp: string | null; model: string | null; kind: string }]>;
  rewriteMessage: Statement<[RewriteParams]>;
  insertBlock: Statement<InsertBlockParams>;
  callName: Statement<[sessionId: number, callId: string], string>;
  blockIdsOfMessage: Statement<[messageId: number], number>;
  deleteBlocks: Statement<[messageId: number]>;
  deleteBlock: Statement<[blockId: number]>;
  deleteMessage: Statement<[messageId: number]>;
  messagesOfSource: Statement<[sourceId: number], { id: number; sessionId: number; key: string }>;
  upsertUsage: Statement<UsageParams>;
  refreshSession: Statement<[{ id: number }]>;
  linkParents: Statement<[]>;
  /** Results stored before their call wait in unnamed_results until it arrives. */
  waitForCall: Statement<[sessionId: number, callId: string, blockId: number]>;
  waitingFor: Statement<[sessionId: number, callId: string], number>;
  nameResult: Statement<[toolName: string, noise: string | null, blockId: number]>;
  namedResults: Statement<[sessionId: number, callId: string]>;
}

export function prepareWriterStatements(db: Database): WriterStatements {
  return {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    upsertSession: db.prepare(
      `INSERT INTO sessions (agent, external_id, project, git_branch, title, title_at,
        parent_external_id, relation, meta, updated_at)
      VALUES (@agent, @key, @project, @gitBranch, @title, @titleAt, @parentKey, @relation, @meta, @now)
      ON CONFLICT (agent, external_id) DO UPDATE SET
        project = COALESCE(sessions.project, excluded.project),
        git_branch = COALESCE(excluded.git_branch, sessions.git_branch),
        -- Of two versions of one session, the title of the one whose messages reach later wins (see migration 9).
        title = CASE WHEN ${NEWER_TITLE} THEN excluded.title ELSE sessions.title END,
        title_at = CASE WHEN ${NEWER_TITLE} THEN COALESCE(excluded.title_at, sessions.title_at) ELSE ` +
        `sessions.title_at END,
        parent_external_id = COALESCE(excluded.parent_external_id, sessions.parent_external_id),
        relation = COALESCE(excluded.relation, sessions.relation),
        meta = COALESCE(excluded.meta, sessions.meta),
        archived = 0,
        updated_at = excluded.updated_at
      RETURNING id`,
    ),
    linkSource: db.prepare('INSERT OR IGNORE INTO session_sources (session_id, source_id) VALUES (?, ?)'),
    maxSeq: db.prepare<[number], number>('SELECT COALESCE(MAX(seq), 0) FROM messages WHERE session_id = ?').pluck(),
    findMessage: db.prepare(
      'SELECT id, content_hash, archived, source_id FROM messages WHERE session_id = ? AND key = ?',
    ),
    insertMessage:
      db.prepare(`INSERT INTO messages (session_id, key, seq, role, kind, timestamp, model, source_id, line,
        is_sidechain, content_hash, meta)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS TEXT))`),
    mergeMessage:
      db.prepare(`UPDATE messages SET timestamp = COALESCE(timestamp, @timestamp), model = COALESCE(model, @model),
      kind = CASE WHEN kind = 'response' AND @kind = 'error' THEN 'error' ELSE kind END, content_hash = NULL WHERE
        id = @id`),
    rewriteMessage:
      db.prepare(`UPDATE messages SET role = @role, kind = @kind, timestamp = @timestamp, model = @model, source_id
        = @sourceId,
      line = @line, is_sidechain = @sidechain, content_hash = @hash, meta = CAST(@meta AS TEXT), archived = 0 WHERE
        id = @id`),
    // Texts may come as UTF-8 bytes (packed by the ingest worker): CAST stores them as TEXT, unchanged.
    insertBlock:
      db.prepare(`INSERT INTO blocks (message_id, idx, kind, field, text, tool_name, tool_call_id, tool_input,
        is_error, noise, meta)
      VALUES (?, ?, ?, ?, CAST(? AS TEXT), ?, ?, CAST(? AS TEXT), ?, ?, CAST(? AS TEXT))`),
    // A result whose call was stored earlier (an appended file): the call is looked for in its session.
    callName: db
      .prepare<[number, string], string>(`SELECT b.tool_name FROM messages m JOIN blocks b ON b.message_id = m.id
        WHERE m.session_id = ? AND b.tool_call_id = ? AND b.kind = 'tool_call' AND b.tool_name IS NOT NULL ORDER BY
          m.seq DESC LIMIT 1`)
      .pluck(),
    blockIdsOfMessage: db.prepare<[number], number>('SELECT id FROM blocks WHERE message_id = ?').pluck(),
    deleteBlocks: db.prepare('DELETE FROM blocks WHERE message_id = ?'),
    deleteBlock: db.prepare('DELETE FROM blocks WHERE id = ?'),
    deleteMessage: db.prepare('DELETE FROM messages WHERE id = ?'),
    messagesOfSource: db.prepare('SELECT id, session_id AS sessionId, key FROM messages WHERE source_id = ?'),
    upsertUsage: db.prepare(`INSERT INTO usage (session_id, api_message_id, model, input_tokens, output_tokens,
        cache_read_tokens, cache_write_tokens)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (session_id, api_message_id) DO UPDATE SET
        input_tokens = MAX(usage.input_tokens, excluded.input_tokens), output_tokens = MAX(usage.output_tokens,
          excluded.output_tokens),
        cache_read_tokens = MAX(usage.cache_read_tokens, excluded.cache_read_tokens), cache_write_tokens =
          MAX(usage.cache_write_tokens, excluded.cache_write_tokens)`),
    // One pass over the session's messages and one over its usage rows (not one per column).
    refreshSession: db.prepare(`UPDATE sessions SET
        (message_count, prompt_count, started_at, ended_at) = (SELECT COUNT(*), COUNT(CASE WHEN kind = 'prompt' THEN
          1 END),
          MIN(timestamp), MAX(timestamp) FROM messages WHERE session_id = @id),
        models = (SELECT COALESCE(json_group_array(model), '[]') FROM (SELECT DISTINCT model FROM messages WHERE
          session_id = @id AND model IS NOT NULL ORDER BY model)),
        (input_tokens, output_tokens, cache_read_tokens, cache_write_tokens) = (SELECT COALESCE(SUM(input_tokens), 0),
          COALESCE(SUM(output_tokens), 0), COALESCE(SUM(cache_read_tokens), 0), COALESCE(SUM(cache_write_tokens), 0)
          FROM usage WHERE session_id = @id)
      WHERE id = @id`),
    linkParents:
      db.prepare(`UPDATE sessions SET parent_id = (SELECT p.id FROM sessions p WHERE p.agent = sessions.agent AND
        p.external_id = sessions.parent_external_id)
      WHERE parent_external_id IS NOT NULL AND parent_id IS NULL`),
    waitForCall: db.prepare('INSERT OR IGNORE INTO unnamed_results (session_id, call_id, block_id) VALUES (?, ?, ?)'),
    waitingFor: db
      .prepare<[number, string], number>('SELECT block_id FROM unnamed_results WHERE session_id = ? AND call_id = ?')
      .pluck(),
    nameResult: db.prepare('UPDATE blocks SET tool_name = ?, noise = coalesce(noise, ?) WHERE id = ?'),
    namedResults: db.prepare('DELETE FROM unnamed_results WHERE session_id = ? AND call_id = ?'),
  };
}
