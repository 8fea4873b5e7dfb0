// Owns reading a workspace's conversations from the store: top-level sessions oldest first with a cheap
// fingerprint (their and their subagents' update times and message counts), and, when one must be
// processed, its messages compacted for the model with subagent messages merged in by time.
import type { Database } from 'better-sqlite3';
import { sha256 } from '../../shared/hash.js';
import { sessionWhere } from '../sessions/session-filter.js';
import { keyInput } from '../../shared/tool-calls/tool-classes.js';
import { parseJson } from '../../shared/tool-calls/call-stats.js';
import { toolInputJson } from '../../store/tool-input.js';
import type { Conversation, ConversationMessage } from './types.js';
import { editDiffLines } from './edit-lines.js';

/** Which sessions form a workspace: a project (matched as `strata index --project`) or one source file. */
export type WorkspaceSelection = { kind: 'project'; project: string } | { kind: 'history'; path: string };

export interface ConversationHead {
  rowId: number;
  id: string;
  agent: string;
  title: string | null;
  startedAt: string | null;
  /** When strata last stored the session: the time of its events when its messages carry none. */
  storedAt: string;
  /** Row ids of the session and its subagents (recursively), the session first. */
  members: number[];
  fingerprint: string;
}

interface SessionRow {
  id: number;
  external_id: string;
  agent: string;
  title: string | null;
  started_at: string | null;
  updated_at: string;
  message_count: number;
  parent_id: number | null;
}

const COLUMNS = 's.id, s.external_id, s.agent, s.title, s.started_at, s.updated_at, s.message_count, s.parent_id';
/** Sessions that repeat or serve another conversation: compaction transcripts and prompt suggestions. */
const SKIPPED_RELATIONS = "(s.relation IS NULL OR s.relation NOT IN ('compaction', 'prompt_suggestion'))";

/** The workspace's conversations, oldest first by start time (subagent sessions go with their parent). */
export function listConversations(db: Database, selection: WorkspaceSelection): ConversationHead[] {
  let roots: SessionRow[];
  if (selection.kind === 'project') {
    const where = sessionWhere({ project: selection.project });
    roots = db
      .prepare(
        `SELECT ${COLUMNS} FROM sessions s ${where.sql} AND s.parent_id IS NULL AND ${SKIPPED_RELATIONS} ORDER BY ` +
          `s.started_at, s.id`,
      )
      .all(...where.params) as SessionRow[];
  } else {
    roots = db
      .prepare(`SELECT ${COLUMNS} FROM sessions s WHERE s.parent_id IS NULL AND ${SKIPPED_RELATIONS} AND s.id IN
        (SELECT ss.session_id FROM session_sources ss JOIN sources src ON src.id = ss.source_id WHERE src.path = ?)
          ORDER BY s.started_at, s.id`)
      .all(selection.path) as SessionRow[];
  }
  if (roots.length === 0) return [];
  const children = new Map<number, SessionRow[]>();
  for (const row of db
    .prepare(
      `SELECT ${COLUMNS} FROM sessions s WHERE s.parent_id IS NOT NULL AND ${SKIPPED_RELATIONS} ORDER BY ` +
        `s.started_at, s.id`,
    )
    .all() as SessionRow[]) {
    const list = children.get(row.parent_id!);
    if (list) list.push(row);
    else children.set(row.parent_id!, [row]);
  }
  return roots.map((root) => {
    const members: SessionRow[] = [];
    const seen = new Set<number>();
    const visit = (row: SessionRow, depth: number): void => {
      if (seen.has(row.id) || depth > 16) return;
      seen.add(row.id);
      members.push(row);
      for (const child of children.get(row.id) ?? []) visit(child, depth + 1);
    };
    visit(root, 0);
    const fingerprint = sha256(
      members.map((m) => `${m.external_id}\u0000${m.updated_at}\u0000${m.message_count}`).join('\n'),
    ).slice(0, 32);
    return {
      rowId: root.id,
      id: root.external_id,
      agent: root.agent,
      title: root.title,
      startedAt: root.started_at,
      storedAt: root.updated_at,
      members: members.map((m) => m.id),
      fingerprint,
    };
  });
}

interface MessageBlockRow {
  message_id: number;
  role: string;
  mkind: string;
  timestamp: string | null;
  kind: string | null;
  field: string | null;
  text: string | null;
  tool_name: string | null;
  tool_input: string | null;
  is_error: number | null;
  noise: string | null;
}

/**
 * Message kinds that carry nothing for a logbook: harness records, injected context, API errors, compaction summaries
 * (they repeat the conversation).
 */
const SKIPPED_KINDS = new Set(['system', 'meta', 'error', 'compaction']);
const CALL_MAX = 160;
const RESULT_MAX = 160;

/** The header Codex puts above a command's output: it says nothing about the command. */
const EXEC_HEADER = /^(?:Chunk ID|Wall time|Process exited with code|Original token count|Output):/;

function firstLine(text: string): string {
  for (const line of text.split(/\r\n|\r|\n/)) {
    const t = line.trim();
    if (t !== '' && !EXEC_HEADER.test(t)) return t;
  }
  return '';
}

const ERROR_LINE = new RegExp(
  String.raw`\b(?:error|failed|failure|cannot|can't|not found|no such|exception|undefined|denied|refused|` +
    String.raw`missing|invalid|unexpected|panicked|traceback)\b`,
  'i',
);

/**
 * What only a failed build or test run prints (a compiler diagnostic, npm's error banner, a Python traceback,
 * a failing test file): a result holding it failed even when a pipe (`| head`) hid the exit status.
 */
const FAILURE_OUTPUT = new RegExp(
  String.raw`\berror TS\d{4}:|^npm ERR!|\berror\[E\d{4}\]|^Traceback \(most recent call last\)|` +
    String.raw`^FAIL\s+\S+\.(?:test|spec)\.|^(?:Syntax|Type|Reference|ModuleNotFound|Import)Error: |` +
    String.raw`^BUILD FAILURE\b|^error: could not compile\b|^Failed to compile\b`,
  'm',
);

const SHELL_TOOL = /bash|shell|exec|terminal|command|^run/i;

/**
 * A failed result's first line, and its first line naming an error when that is another one ("Exit code 1" says
 * little).
 */
function failureLines(text: string): string {
  const first = firstLine(text);
  if (ERROR_LINE.test(first)) return first;
  const named = text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .find((l) => ERROR_LINE.test(l));
  return named ? `${first} … ${named}` : first;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1).trimEnd() + '…';
}

/**
 * One session's messages compacted for the model: prose kept whole; a tool call keeps its name and its
 * key input's first line (command or file); a result keeps its first line and whether it failed;
 * thinking, noise, images and system text are dropped. Messages left empty are skipped.
 */
function readSessionMessages(
  db: Database,
  rowId: number,
  session: string,
  agent: string,
  prefix: string,
): ConversationMessage[] {
  const rows = db
    .prepare(`SELECT m.id AS message_id, m.role, m.kind AS mkind, m.timestamp, b.kind, b.field,
        CASE WHEN b.kind = 'tool_result' THEN substr(b.text, 1, 2000) ELSE b.text END AS text, b.tool_name,
          b.tool_input, b.is_error, b.noise
      FROM messages m LEFT JOIN blocks b ON b.message_id = m.id WHERE m.session_id = ? ORDER BY m.seq, m.id, b.idx`)
    .all(rowId) as MessageBlockRow[];
  const out: ConversationMessage[] = [];
  let number = 0;
  let lastId = -1;
  let current: { parts: string[]; failed: boolean; row: MessageBlockRow; number: number } | undefined;
  const flush = (): void => {
    if (!current) return;
    const text = current.parts.join('\n').trim();
    if (text !== '') {
      const role = current.row.mkind === 'tool_output' ? 'tool' : current.row.role;
      out.push({
        chunkId: `${prefix}${current.number}`,
        session,
        agent,
        number: current.number,
        role,
        timestamp: current.row.timestamp,
        text,
        failed: current.failed,
      });
    }
    current = undefined;
  };
  for (const row of rows) {
    if (row.message_id !== lastId) {
      flush();
      lastId = row.message_id;
      number++;
      if (!SKIPPED_KINDS.has(row.mkind)) current = { parts: [], failed: false, row, number };
    }
    if (!current || row.kind === null || row.noise) continue;
    const text = row.text ?? '';
    if (row.kind === 'text') {
      if (text.trim() !== '') current.parts.push(text.trim());
    } else if (row.kind === 'tool_call') {
      const input = parseJson(toolInputJson(row.tool_input, row.text));
      current.parts.push(
        `→ ${row.tool_name ?? 'tool'}: ${clip(firstLine(keyInput(row.tool_name, input, text)), CALL_MAX)}`,
        ...editDiffLines(row.tool_name, input),
      );
    } else if (row.kind === 'tool_result') {
      const shell = SHELL_TOOL.test(row.tool_name ?? '');
      const failed = row.is_error === 1 || (shell && FAILURE_OUTPUT.test(text));
      current.failed ||= failed;
      current.parts.push(
        `← ${row.tool_name ?? 'result'}${failed ? ' FAILED' : ''}: ` +
          clip(failed ? failureLines(text) : firstLine(text), failed ? RESULT_MAX * 2 : RESULT_MAX),
      );
    }
  }
  flush();
  return out;
}

/** The conversation's messages: the session's own, then each subagent's merged in by timestamp. */
export function loadConversation(db: Database, head: ConversationHead): Conversation {
  const info = db.prepare('SELECT external_id, agent FROM sessions WHERE id = ?');
  const streams: ConversationMessage[][] = head.members.map((rowId, k) => {
    const s = info.get(rowId) as { external_id: string; agent: string };
    const stream = readSessionMessages(db, rowId, s.external_id, s.agent, k === 0 ? '' : `a${k}.`);
    return k > 0 && idleSubagent(db, rowId, stream) ? [] : stream;
  });
  return {
    id: head.id,
    agent: head.agent,
    title: head.title,
    startedAt: head.startedAt,
    fingerprint: head.fingerprint,
    messages: mergeByTime(streams),
  };
}

/**
 * A subagent that did no work: a "Warmup" call (its reply is invented, not read from the project) or one
 * whose agent wrote nothing. Its messages would cost a chunk and teach the model nothing.
 */
function idleSubagent(db: Database, rowId: number, stream: ConversationMessage[]): boolean {
  const first = db
    .prepare(`SELECT b.text FROM messages m JOIN blocks b ON b.message_id = m.id WHERE m.session_id = ? AND
      m.role = 'user' AND b.kind = 'text' ORDER BY m.seq, m.id, b.idx LIMIT 1`)
    .get(rowId) as { text: string | null } | undefined;
  if (first?.text && /^warm-?up$/i.test(first.text.trim())) return true;
  return !stream.some(
    (m) => m.role === 'assistant' && m.text.split('\n').some((l) => l.trim() && !/^(?:[→←] |│[-+] )/.test(l)),
  );
}

/** Stable merge: a message without a timestamp sorts with the previous one of its own stream. */
function mergeByTime(streams: ConversationMessage[][]): ConversationMessage[] {
  if (streams.length === 1) return streams[0]!;
  const keyed: Array<{ m: ConversationMessage; key: string; stream: number; pos: number }> = [];
  streams.forEach((stream, s) => {
    let last = '';
    stream.forEach((m, pos) => {
      const t = m.timestamp ? Date.parse(m.timestamp) : NaN;
      if (Number.isFinite(t)) last = new Date(t).toISOString();
      keyed.push({ m, key: last, stream: s, pos });
    });
  });
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.stream - b.stream || a.pos - b.pos));
  return keyed.map((k) => k.m);
}
