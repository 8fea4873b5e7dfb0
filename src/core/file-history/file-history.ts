// Owns the file-history query behind `strata blame` and the UI's Files page: the messages that created,
// edited, read, ran a command on or discussed a file, newest first, each edit with its diff hunks. Candidates
// come from the full-text index (the file's base name as a phrase) plus blocks not yet indexed; each is
// then checked by path (core/file-history/path-match.ts), so a same-named file elsewhere does not count.
import type { Database } from 'better-sqlite3';
import { classifyTool, shellCommand } from '../../shared/tool-calls/tool-classes.js';
import { storedCallInput } from '../../store/session-stats.js';
import { shortIdsFor } from '../retrieval/session-ids.js';
import { filePathOf } from '../../shared/tool-calls/edit-stats.js';
import { editHunks, locateInFile, type EditHunk } from './edit-hunks.js';
import { baseName, mentionsPath, pathKey, recordedKey, samePath, type PathKey } from './path-match.js';

type FileAction = 'created' | 'edited' | 'read' | 'ran' | 'discussed';

interface FileHunk extends EditHunk {
  /** Where the edit's new text is in the file today (1-based lines), when found there. */
  range?: { start: number; end: number };
  /** Set when a line was asked for: whether this hunk covers it. */
  touchesLine?: boolean;
}

interface FileHistoryEntry {
  sessionId: string;
  shortId: string;
  agent: string;
  project: string | null;
  title: string | null;
  /** 1-based position of the message in its session (what `strata read <id> N` opens). */
  message: number;
  timestamp: string | null;
  action: FileAction;
  toolName: string | null;
  /** The path as the agent wrote it. */
  recordedPath: string | null;
  /** One line: the command run, or the words around the mention. */
  excerpt: string;
  hunks: FileHunk[];
}

export interface FileHistoryOptions {
  path: string;
  /** Only edits whose hunk touches this 1-based line (located in today's file), plus every other action. */
  line?: number;
  /** At most this many entries (newest first; default 200). */
  limit?: number;
  /** Only these actions. */
  actions?: FileAction[];
  /** Reads today's file to place edit hunks (the shell passes a reader; tests pass text). */
  readCurrent?: (path: string) => string | undefined;
}

export interface FileHistory {
  path: string;
  line: number | null;
  entries: FileHistoryEntry[];
  /** Entries found before the limit applied. */
  total: number;
}

const READ_TOOLS = new Set(['read', 'read_file', 'view', 'notebookread', 'read_many_files', 'open', 'cat']);

interface CandidateRow {
  id: number;
  kind: string;
  text: string;
  tool_name: string | null;
  tool_input: string | null;
  message_id: number;
  seq: number;
  timestamp: string | null;
  session_id: number;
  external_id: string;
  agent: string;
  project: string | null;
  title: string | null;
}

/** The FTS5 phrase of a base name: `session-writer.ts` → `"session writer ts"`. */
function basePhrase(base: string): string | undefined {
  const tokens = base.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return tokens.length ? `"${tokens.join(' ')}"` : undefined;
}

function candidates(db: Database, base: string): CandidateRow[] {
  const phrase = basePhrase(base);
  const columns = `b.id, b.kind, b.text, b.tool_name, b.tool_input, m.id message_id, m.seq, m.timestamp, s.id
    session_id,
    s.external_id, s.agent, s.project, COALESCE(s.title, st.first_prompt) title
    FROM blocks b JOIN messages m ON m.id = b.message_id JOIN sessions s ON s.id = m.session_id
    LEFT JOIN session_stats st ON st.session_id = s.id`;
  const kinds = `b.kind IN ('tool_call', 'text', 'thinking') AND b.noise IS NULL`;
  const rows: CandidateRow[] = [];
  if (phrase) {
    rows.push(
      ...(db
        .prepare(`SELECT ${columns} WHERE b.id IN (SELECT rowid FROM blocks_fts WHERE blocks_fts MATCH ?) AND ${kinds}`)
        .all(phrase) as CandidateRow[]),
    );
  }
  // Blocks above the index mark wait for the next full-text batch: look at them directly.
  const mark = (db.prepare('SELECT indexed_through FROM fts_state').pluck().get() as number | undefined) ?? 0;
  rows.push(
    ...(db
      .prepare(`SELECT ${columns} WHERE b.id > ? AND ${kinds} AND instr(b.text, ?) > 0`)
      .all(mark, base) as CandidateRow[]),
  );
  return rows;
}

function excerptAround(text: string, base: string, width = 80): string {
  const flat = text.replace(/\s+/g, ' ');
  const at = flat.indexOf(base);
  const from = Math.max(0, at - width);
  return (
    (from > 0 ? '…' : '') +
    flat.slice(from, at + base.length + width).trim() +
    (at + base.length + width < flat.length ? '…' : '')
  );
}

function classifyCall(
  row: CandidateRow,
  query: PathKey,
  base: string,
):
  | Omit<FileHistoryEntry, 'sessionId' | 'shortId' | 'agent' | 'project' | 'title' | 'message' | 'timestamp'>
  | undefined {
  const input = storedCallInput(row.tool_input, row.text);
  const hunks = editHunks(row.tool_name, input).filter((h) => samePath(recordedKey(h.path, row.project), query));
  if (hunks.length > 0) {
    const created = hunks.every((h) => h.op === 'create');
    return {
      action: created ? 'created' : 'edited',
      toolName: row.tool_name,
      recordedPath: hunks[0]!.path,
      excerpt: '',
      hunks,
    };
  }
  const name = (row.tool_name ?? '').toLowerCase();
  const path =
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? filePathOf(input as Record<string, unknown>)
      : undefined;
  if (path && samePath(recordedKey(path, row.project), query)) {
    return {
      action: READ_TOOLS.has(name) ? 'read' : 'ran',
      toolName: row.tool_name,
      recordedPath: path,
      excerpt: '',
      hunks: [],
    };
  }
  const command = classifyTool(row.tool_name) === 'bash' ? shellCommand(input) : undefined;
  const text = command ?? row.text;
  if (!mentionsPath(text, query, row.project)) return undefined;
  return {
    action: command ? 'ran' : 'discussed',
    toolName: row.tool_name,
    recordedPath: null,
    excerpt: excerptAround(text, base),
    hunks: [],
  };
}

/** The history of one file across every stored session, newest first. */
export function fileHistory(db: Database, options: FileHistoryOptions): FileHistory {
  const query = pathKey(options.path);
  const base = baseName(options.path);
  const line = options.line ?? null;
  if (!base) return { path: options.path, line, entries: [], total: 0 };
  const seen = new Set<number>();
  const found: (FileHistoryEntry & { sessionRow: number; seq: number; messageRow: number })[] = [];
  const current = options.readCurrent?.(options.path);
  for (const row of candidates(db, base)) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    const what =
      row.kind === 'tool_call'
        ? classifyCall(row, query, base)
        : mentionsPath(row.text, query, row.project)
          ? {
              action: 'discussed' as const,
              toolName: null,
              recordedPath: null,
              excerpt: excerptAround(row.text, base),
              hunks: [],
            }
          : undefined;
    if (!what) continue;
    if (options.actions && !options.actions.includes(what.action)) continue;
    for (const h of what.hunks as FileHunk[]) {
      const range =
        h.startLine !== undefined && h.newText !== undefined
          ? { start: h.startLine, end: h.startLine + Math.max(0, h.newText.replace(/\n$/, '').split('\n').length - 1) }
          : current !== undefined && h.newText !== undefined
            ? locateInFile(current, h.newText)
            : undefined;
      if (range) h.range = range;
      if (line !== null) h.touchesLine = range !== undefined && line >= range.start && line <= range.end;
    }
    if (line !== null && what.hunks.length > 0 && !(what.hunks as FileHunk[]).some((h) => h.touchesLine)) continue;
    found.push({
      sessionId: row.external_id,
      shortId: row.external_id,
      agent: row.agent,
      project: row.project,
      title: row.title,
      message: 0,
      timestamp: row.timestamp,
      ...what,
      sessionRow: row.session_id,
      seq: row.seq,
      messageRow: row.message_id,
    });
  }
  found.sort((a, b) => (b.timestamp ?? '').localeCompare(a.timestamp ?? '') || b.messageRow - a.messageRow);
  const limit = options.limit ?? 200;
  const shown = found.slice(0, limit);
  const shortIds = shortIdsFor(db, [...new Set(shown.map((e) => e.sessionId))]);
  const position = db
    .prepare('SELECT COUNT(*) FROM messages WHERE session_id = ? AND (seq < ? OR (seq = ? AND id <= ?))')
    .pluck();
  const entries = shown.map(({ sessionRow, seq, messageRow, ...entry }) => ({
    ...entry,
    shortId: shortIds.get(entry.sessionId) ?? entry.sessionId,
    message: position.get(sessionRow, seq, seq, messageRow) as number,
  }));
  return { path: options.path, line, entries, total: found.length };
}
