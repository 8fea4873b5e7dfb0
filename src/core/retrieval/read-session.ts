// Owns `read`: loading a session's messages (or a range N-M, 1-based by seq, widened so a call and its
// result stay together), joining tool results to their calls by tool_call_id, edits as unified diffs, the
// subagent a Task call started, --show/--hide visibility and the adaptive uniform word truncation.
import type { Database } from 'better-sqlite3';
import { usageError, StrataError } from '../../shared/errors.js';
import type { BlockField } from '../../shared/model.js';
import { resolveSession, type ResolvedSession } from './session-ids.js';
import { matches, resolveVisibility, type Selector, type Visibility } from './selectors.js';
import { callLinks, widenToPairs } from './call-links.js';
import { editDiff } from './edit-diff.js';
import { computeUniformLimit, countWords, truncateWords, DEFAULT_TARGET_WORDS } from './truncation.js';
import { keyInput } from '../../shared/tool-calls/tool-classes.js';
import { toolInputJson } from '../../store/tool-input.js';

export interface ReadOptions {
  /** `N` or `N-M` or `N-` (1-based message positions). */
  range?: string;
  show?: Selector[];
  hide?: Selector[];
  targetWords?: number;
  skip?: number;
  full?: boolean;
  /** At most this many characters of shown text in all (fields past it cut, the later ones to nothing). */
  maxChars?: number;
}

export interface ReadBlock {
  field: BlockField;
  kind: string;
  toolName: string | null;
  toolCallId: string | null;
  visibility: Exclude<Visibility, 'hide'>;
  isError: boolean;
  /** Words in the field (a tool call's field is its key input). */
  words: number;
  /** Shown text ('' for `count`). */
  text: string;
  truncated: boolean;
  /** Words left out after the shown ones when truncated. */
  cutWords?: number;
  /** The session id of the subagent a Task/Agent call started, when it is stored. */
  subagent?: string;
}

export interface ReadMessage {
  n: number;
  role: string;
  kind: string;
  timestamp: string | null;
  model: string | null;
  /** The message vanished from its source file (a shortened or rewritten transcript): kept, archived. */
  removed: boolean;
  blocks: ReadBlock[];
}

export interface ReadResult {
  session: ResolvedSession & { messages: number };
  from: number;
  to: number;
  /** The uniform per-field word limit applied, or null when nothing was cut. */
  wordLimit: number | null;
  skip: number;
  /** Set when `maxChars` cut the shown text. */
  charLimit?: number;
  messages: ReadMessage[];
}

/** Parses `N`, `N-M` or `N-` against a session of `total` messages. */
export function parseRange(range: string | undefined, total: number): { from: number; to: number } {
  if (range === undefined || range === '') return { from: 1, to: total };
  const m = /^(\d+)(?:\s*(-)\s*(\d+)?)?$/.exec(range.trim());
  if (!m) throw usageError(`invalid range "${range}": use N, N-M or N-`);
  const from = Number(m[1]);
  const to = m[2] ? (m[3] !== undefined ? Number(m[3]) : total) : from;
  if (from < 1 || to < from) throw usageError(`invalid range "${range}": positions start at 1 and N must not exceed M`);
  if (from > total)
    throw new StrataError(
      'NOT_FOUND',
      `the session has ${total} message${total === 1 ? '' : 's'}; ${from} is out of range`,
    );
  return { from, to: Math.min(to, total) };
}

interface BlockRow {
  id: number;
  message_id: number;
  kind: string;
  field: BlockField;
  /** null for tool results: their text is read only when they are shown (hidden by default). */
  text: string | null;
  tool_name: string | null;
  tool_call_id: string | null;
  tool_input: string | null;
  is_error: number;
  noise: string | null;
}

interface MessageRow {
  id: number;
  role: string;
  kind: string;
  timestamp: string | null;
  model: string | null;
  archived: number;
}

/** A tool input in full: its JSON, indented, or its text. */
function fullInput(input: unknown, own: string): string {
  if (input === undefined) return own;
  return typeof input === 'string' ? input : JSON.stringify(input, null, 2);
}

function parseInput(row: BlockRow): unknown {
  const json = toolInputJson(row.tool_input, row.text);
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

const BLOCK_COLUMNS = `b.id, b.message_id, b.kind, b.field,
  CASE WHEN b.kind = 'tool_result' THEN NULL ELSE b.text END AS text,
  b.tool_name, b.tool_call_id, b.tool_input, b.is_error, b.noise`;

/** Blocks of each picked message in order: one query for the whole session when many messages are read. */
function loadBlocks(db: Database, sessionId: number, picked: MessageRow[]): BlockRow[][] {
  if (picked.length <= 64) {
    const blocksOf = db.prepare(`SELECT ${BLOCK_COLUMNS} FROM blocks b WHERE b.message_id = ? ORDER BY b.idx`);
    return picked.map((m) => blocksOf.all(m.id) as BlockRow[]);
  }
  const byMessage = new Map<number, BlockRow[]>(picked.map((m) => [m.id, []]));
  const all = db
    .prepare(
      `SELECT ${BLOCK_COLUMNS} FROM messages m JOIN blocks b ON b.message_id = m.id WHERE m.session_id = ? ORDER BY ` +
        `b.message_id, b.idx`,
    )
    .all(sessionId) as BlockRow[];
  for (const b of all) byMessage.get(b.message_id)?.push(b);
  return picked.map((m) => byMessage.get(m.id)!);
}

export function readSession(db: Database, typedId: string, options: ReadOptions = {}): ReadResult {
  const session = resolveSession(db, typedId);
  const all = db
    .prepare('SELECT id, role, kind, timestamp, model, archived FROM messages WHERE session_id = ? ORDER BY seq, id')
    .all(session.id) as MessageRow[];
  if (all.length === 0) throw new StrataError('NOT_FOUND', `session ${session.externalId} has no messages`);
  const asked = parseRange(options.range, all.length);
  const links = callLinks(db, session.id, new Map(all.map((m, i) => [m.id, i])));
  const widened =
    options.range === undefined
      ? { from: asked.from - 1, to: asked.to - 1 }
      : widenToPairs(asked.from - 1, asked.to - 1, links);
  const from = widened.from + 1;
  const to = widened.to + 1;
  const picked = all.slice(from - 1, to);
  const rows = loadBlocks(db, session.id, picked);
  // A result shows its call's name when the call is in range; otherwise the name stored with it at ingest.
  const callNames = new Map<string, string>();
  for (const list of rows) {
    for (const b of list)
      if (b.kind === 'tool_call' && b.tool_call_id && b.tool_name) callNames.set(b.tool_call_id, b.tool_name);
  }
  const subagentOf = db.prepare('SELECT external_id FROM sessions WHERE external_id = ? AND parent_id = ?').pluck();
  const textOf = db.prepare('SELECT text FROM blocks WHERE id = ?').pluck();
  const show = options.show ?? [];
  const hide = options.hide ?? [];
  const skip = options.skip ?? 0;
  const messages: ReadMessage[] = picked.map((m, i) => {
    const blocks: ReadBlock[] = [];
    for (const b of rows[i]!) {
      let toolName = b.tool_name;
      if (b.kind === 'tool_result' && b.tool_call_id) {
        toolName = callNames.get(b.tool_call_id) ?? toolName;
      }
      const visibility = resolveVisibility({ field: b.field, toolName, noise: b.noise !== null }, show, hide);
      if (visibility === 'hide') continue;
      const own = b.text ?? (textOf.get(b.id) as string);
      const link = b.tool_call_id ? links.get(b.tool_call_id) : undefined;
      let text = own;
      let subagent: string | undefined;
      if (b.kind === 'tool_call') {
        const input = parseInput(b);
        const target = { field: b.field, toolName, noise: false };
        const selected = show.some((sel) => sel.category === 'tool' && matches(sel, target));
        text = editDiff(toolName, input) ?? (selected ? fullInput(input, own) : keyInput(toolName, input, own));
        if (link?.agentId) {
          subagent = (subagentOf.get(`agent-${link.agentId}`, session.id) as string | undefined) ?? undefined;
        }
      }
      if (
        b.kind !== 'tool_call' &&
        visibility === 'show' &&
        text.trim() === '' &&
        b.kind !== 'image' &&
        b.kind !== 'document'
      )
        continue;
      blocks.push({
        field: b.field,
        kind: b.kind,
        toolName,
        toolCallId: b.tool_call_id,
        visibility,
        isError: b.is_error === 1 || (b.kind === 'tool_call' && link?.isError === true),
        words: countWords(text),
        text,
        truncated: false,
        ...(subagent ? { subagent } : {}),
      });
    }
    return {
      n: from + i,
      role: m.role,
      kind: m.kind,
      timestamp: m.timestamp,
      model: m.model,
      removed: m.archived === 1,
      blocks,
    };
  });
  const shown = messages.flatMap((m) => m.blocks.filter((b) => b.visibility === 'show'));
  const limit = options.full
    ? Infinity
    : computeUniformLimit(
        shown.map((b) => Math.max(0, b.words - skip)),
        options.targetWords ?? DEFAULT_TARGET_WORDS,
      );
  let cut = false;
  for (const b of shown) {
    if (options.full && skip === 0) continue;
    const t = truncateWords(b.text, limit, skip, b.words);
    b.text = t.text;
    b.truncated = t.truncated;
    if (t.truncated) b.cutWords = t.words - Math.min(skip, t.words) - t.shown;
    cut ||= t.truncated;
  }
  const charCut = options.maxChars !== undefined && capChars(shown, options.maxChars);
  for (const m of messages) {
    for (const b of m.blocks) if (b.visibility === 'count') b.text = '';
    // With --skip, fields shorter than the skip have nothing left to show.
    if (skip > 0) m.blocks = m.blocks.filter((b) => b.visibility !== 'show' || b.text !== '');
  }
  return {
    session: { ...session, messages: all.length },
    from,
    to,
    wordLimit: cut && Number.isFinite(limit) ? limit : null,
    skip,
    ...(charCut ? { charLimit: options.maxChars } : {}),
    messages,
  };
}

/** Cuts the shown fields, in order, to `max` characters in all; true when something was cut. */
function capChars(shown: ReadBlock[], max: number): boolean {
  let left = max;
  let cut = false;
  for (const b of shown) {
    if (b.text.length > left) {
      b.text = b.text.slice(0, left);
      b.truncated = true;
      cut = true;
    }
    left -= b.text.length;
  }
  return cut;
}
