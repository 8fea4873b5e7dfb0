// Owns the Session page's data (and `strata export --html`): every message of a session with every block
// (as stored, so redacted; a long one cut, its rest read with blockText), tool inputs parsed, edits as diff
// hunks, token usage per reply where the agent recorded it, the subagent sessions and the files it edited.
import type { Database } from 'better-sqlite3';
import { resolveSession } from '../retrieval/session-ids.js';
import { StrataError } from '../../shared/errors.js';
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
  /** A text too long to send whole: its first `shown` of `total` characters; blockText(id) reads on. */
  cut?: { id: number; shown: number; total: number };
  /** tool_result drawn in its call's fold: the number of the call's message (session-pages.ts sets it). */
  pairedWith?: number;
}

/** Characters of one block sent with a session; past SESSION_TEXT_CHARS in all, LATE_BLOCK_CHARS. */
export const BLOCK_TEXT_CHARS = 100_000;
/** A tool call's input is parsed whole up to this size (its edits become diffs and files touched). */
export const CALL_INPUT_CHARS = 1_000_000;
export const SESSION_TEXT_CHARS = 4_000_000;
const LATE_BLOCK_CHARS = 2_000;
/** At most this many characters of a block in one blockText answer. */
export const BLOCK_PAGE_CHARS = 1_000_000;

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
  id: number;
  message_id: number;
  kind: string;
  field: string;
  text: string;
  text_length: number;
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
    .prepare(`SELECT b.id, b.message_id, b.kind, b.field,
      substr(b.text, 1, CASE b.kind WHEN 'tool_call' THEN ${CALL_INPUT_CHARS} ELSE ${BLOCK_TEXT_CHARS} END) text,
      length(b.text) text_length, b.tool_name, b.tool_call_id, b.is_error, b.noise,
      CASE WHEN length(b.tool_input) > ${CALL_INPUT_CHARS} THEN NULL ELSE b.tool_input END tool_input
    FROM messages m JOIN blocks b ON b.message_id = m.id WHERE m.session_id = ? ORDER BY b.message_id, b.idx`)
    .all(resolved.id) as BlockRow[];
  let sent = 0;
  const byMessage = new Map<number, DetailBlock[]>(messages.map((m) => [m.id, []]));
  const files = new Map<string, { added: number; removed: number }>();
  for (const b of blocks) {
    // Only the first characters of a long text are read; the rest is read on demand (blockText).
    const call = b.kind === 'tool_call';
    const allowed = call ? CALL_INPUT_CHARS : sent < SESSION_TEXT_CHARS ? BLOCK_TEXT_CHARS : LATE_BLOCK_CHARS;
    // Counted in code points, as SQLite's substr and length count them.
    let text = b.text;
    let shown = Math.min(b.text_length, call ? CALL_INPUT_CHARS : BLOCK_TEXT_CHARS);
    if (text.length > allowed) {
      const points = Array.from(text);
      text = points.slice(0, allowed).join('');
      shown = Math.min(points.length, allowed);
    }
    sent += shown;
    const cut = b.text_length > shown ? { id: b.id, shown, total: b.text_length } : undefined;
    const block: DetailBlock = {
      kind: b.kind,
      field: b.field,
      text,
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
      // The input is shown from `input`; the text is the same JSON again (unless cut: then not parsed whole).
      if (b.tool_input === '' && !cut) block.text = '';
    }
    if (cut) block.cut = cut;
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

/** Up to BLOCK_PAGE_CHARS characters of a block's text from `offset`, and its length. */
export function blockText(
  db: Database,
  id: number,
  offset: number,
  length = BLOCK_PAGE_CHARS,
): { id: number; offset: number; total: number; text: string } {
  const row = db
    .prepare('SELECT substr(text, ?, ?) text, length(text) total FROM blocks WHERE id = ?')
    .get(offset + 1, Math.min(length, BLOCK_PAGE_CHARS), id) as { text: string; total: number } | undefined;
  if (!row) throw new StrataError('NOT_FOUND', `no block ${id}`);
  return { id, offset, total: row.total, text: row.text };
}
