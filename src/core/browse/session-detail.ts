// Owns the Session page's data (and `strata export --html`): every message of a session with every block
// in full (as stored, so redacted), tool inputs parsed, edits as diff hunks, token usage per reply where
// the agent recorded it by message, the subagent sessions and the files the session edited.
import type { Database } from 'better-sqlite3';
import { resolveSession } from '../retrieval/session-ids.js';
import { storedCallInput } from '../../store/session-stats.js';
import { keyInput } from '../../shared/tool-calls/tool-classes.js';
import { editHunks, type EditHunk } from '../file-history/edit-hunks.js';

export interface DetailBlock {
  kind: string;
  field: string;
  text: string;
  toolName: string | null;
  toolCallId: string | null;
  isError: boolean;
  noise: string | null;
  /** tool_call: the one-line key input (command, path, pattern...). */
  summary?: string;
  /** tool_call: the parsed input. */
  input?: unknown;
  /** tool_call: what it wrote to files. */
  hunks?: EditHunk[];
}

interface DetailUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface DetailMessage {
  n: number;
  role: string;
  kind: string;
  timestamp: string | null;
  model: string | null;
  usage: DetailUsage | null;
  blocks: DetailBlock[];
}

interface DetailSessionLink {
  id: string;
  agent: string;
  title: string | null;
  relation: string | null;
  startedAt: string | null;
  messages: number;
}

export interface SessionDetail {
  id: string;
  agent: string;
  project: string | null;
  gitBranch: string | null;
  title: string | null;
  startedAt: string | null;
  endedAt: string | null;
  models: string[];
  relation: string | null;
  parent: DetailSessionLink | null;
  subagents: DetailSessionLink[];
  tokens: DetailUsage;
  files: { path: string; added: number; removed: number }[];
  messages: DetailMessage[];
}

interface MessageRow {
  id: number;
  role: string;
  kind: string;
  timestamp: string | null;
  model: string | null;
  ui: number | null;
  uo: number | null;
  ur: number | null;
  uw: number | null;
}

interface BlockRow {
  message_id: number;
  kind: string;
  field: string;
  text: string;
  tool_name: string | null;
  tool_call_id: string | null;
  tool_input: string | null;
  is_error: number;
  noise: string | null;
}

const LINK_COLUMNS = `s.external_id id, s.agent, COALESCE(s.title, st.first_prompt) title, s.relation, s.started_at
  startedAt, s.message_count messages
  FROM sessions s LEFT JOIN session_stats st ON st.session_id = s.id`;

function countLinesOf(lines: string[], op: string): number {
  return lines.reduce((n, l) => n + (l.startsWith(op) ? 1 : 0), 0);
}

/** A session with every message, for the Session page. `typedId` is an id or a unique prefix. */
export function sessionDetail(db: Database, typedId: string): SessionDetail {
  const resolved = resolveSession(db, typedId);
  const s = db
    .prepare(`SELECT git_branch, models, COALESCE(title, (SELECT first_prompt FROM session_stats WHERE session_id =
      sessions.id)) title,
    input_tokens, output_tokens, cache_read_tokens, cache_write_tokens FROM sessions WHERE id = ?`)
    .get(resolved.id) as {
    git_branch: string | null;
    models: string;
    title: string | null;
    input_tokens: number;
    output_tokens: number;
    cache_read_tokens: number;
    cache_write_tokens: number;
  };
  // Claude replies are keyed by their API message id, which is also the key of their usage row.
  const messages = db
    .prepare(`SELECT m.id, m.role, m.kind, m.timestamp, m.model,
      u.input_tokens ui, u.output_tokens uo, u.cache_read_tokens ur, u.cache_write_tokens uw
    FROM messages m LEFT JOIN usage u ON u.session_id = m.session_id AND u.api_message_id = m.key
    WHERE m.session_id = ? ORDER BY m.seq, m.id`)
    .all(resolved.id) as MessageRow[];
  const blocks = db
    .prepare(`SELECT b.message_id, b.kind, b.field, b.text, b.tool_name, b.tool_call_id, b.tool_input, b.is_error,
      b.noise
    FROM messages m JOIN blocks b ON b.message_id = m.id WHERE m.session_id = ? ORDER BY b.message_id, b.idx`)
    .all(resolved.id) as BlockRow[];
  const byMessage = new Map<number, DetailBlock[]>(messages.map((m) => [m.id, []]));
  const files = new Map<string, { added: number; removed: number }>();
  for (const b of blocks) {
    const block: DetailBlock = {
      kind: b.kind,
      field: b.field,
      text: b.text,
      toolName: b.tool_name,
      toolCallId: b.tool_call_id,
      isError: b.is_error === 1,
      noise: b.noise,
    };
    if (b.kind === 'tool_call') {
      const input = storedCallInput(b.tool_input, b.text);
      block.input = input;
      block.summary = keyInput(b.tool_name, input, b.text).slice(0, 300);
      const hunks = editHunks(b.tool_name, input);
      if (hunks.length > 0) {
        block.hunks = hunks;
        for (const h of hunks) {
          const f = files.get(h.path) ?? { added: 0, removed: 0 };
          f.added += countLinesOf(h.lines, '+');
          f.removed += countLinesOf(h.lines, '-');
          files.set(h.path, f);
        }
      }
      // The input is shown from `input`; the text is the same JSON again.
      if (b.tool_input === '') block.text = '';
    }
    byMessage.get(b.message_id)?.push(block);
  }
  const parent =
    resolved.parentId !== null
      ? ((db.prepare(`SELECT ${LINK_COLUMNS} WHERE s.id = ?`).get(resolved.parentId) as
          | DetailSessionLink
          | undefined) ?? null)
      : null;
  return {
    id: resolved.externalId,
    agent: resolved.agent,
    project: resolved.project,
    gitBranch: s.git_branch,
    title: s.title,
    startedAt: resolved.startedAt,
    endedAt: resolved.endedAt,
    models: JSON.parse(s.models) as string[],
    relation: resolved.relation,
    parent,
    subagents: db
      .prepare(`SELECT ${LINK_COLUMNS} WHERE s.parent_id = ? ORDER BY s.started_at, s.id`)
      .all(resolved.id) as DetailSessionLink[],
    tokens: {
      input: s.input_tokens,
      output: s.output_tokens,
      cacheRead: s.cache_read_tokens,
      cacheWrite: s.cache_write_tokens,
    },
    files: [...files].map(([path, f]) => ({ path, ...f })).sort((a, b) => a.path.localeCompare(b.path)),
    messages: messages.map((m, i) => ({
      n: i + 1,
      role: m.role,
      kind: m.kind,
      timestamp: m.timestamp,
      model: m.model,
      usage: m.ui === null ? null : { input: m.ui, output: m.uo ?? 0, cacheRead: m.ur ?? 0, cacheWrite: m.uw ?? 0 },
      blocks: byMessage.get(m.id) ?? [],
    })),
  };
}
