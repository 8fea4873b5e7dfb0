// Owns counting a session's git commits by their outcome: a `git commit` run through a shell counts only
// when its result succeeded, and then by the hashes git printed (`[main 1a2b3c4] message`). Read only for
// sessions whose calls hold a commit at all, so the ingest of other sessions pays nothing.
import type { Database, Statement } from 'better-sqlite3';
import { countCommits } from '../shared/tool-calls/edit-stats.js';
import { classifyTool, shellCommand } from '../shared/tool-calls/tool-classes.js';

export interface CommitCount {
  commits: number;
  /** Abbreviated hashes as git printed them, in the order of the session. */
  hashes: string[];
}

/** git's summary line of a new commit: `[branch (root-commit) 1a2b3c4] subject`. */
const COMMIT_LINE = /^\[[^\]\n]*?\b([0-9a-f]{7,40})\]/gm;

/** A result that reports failure in its text (exit status, git's fatal/error lines, nothing staged). */
const FAILED = new RegExp(
  /(?:exit code|exited with code|exit status)[: ]+[1-9]|^(?:fatal|error): |nothing to commit|/.source +
    /no changes added to commit|nothing added to commit/.source,
  'im',
);

export interface CommitStatements {
  calls: Statement;
  /** The commit calls among the blocks from an id on (what a file transaction appended). */
  callsFrom: Statement;
  result: Statement;
  results: Statement;
  resultById: Statement;
}

const CALL_COLUMNS = 'b.tool_call_id, b.tool_name, b.tool_input, b.text, m.id AS message_id';

export function prepareCommitStatements(db: Database): CommitStatements {
  return {
    calls: db.prepare(`SELECT ${CALL_COLUMNS} FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND b.kind = 'tool_call' AND instr(b.text, 'commit') > 0 ORDER BY m.seq, b.idx`),
    // From the appended blocks (a range of block ids), not from every message of the session.
    callsFrom: db.prepare(`SELECT ${CALL_COLUMNS} FROM blocks b CROSS JOIN messages m ON m.id = b.message_id
      WHERE b.id >= ? AND m.session_id = ? AND b.kind = 'tool_call' AND instr(b.text, 'commit') > 0
      ORDER BY m.seq, b.idx`),
    result: db.prepare(`SELECT b.is_error, b.text FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND b.kind = 'tool_result' AND b.tool_call_id = ? LIMIT 1`),
    // Every result of the session in the order `result` meets them, so the first per call is the one it finds.
    results: db
      .prepare(`SELECT b.tool_call_id, b.id FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND b.kind = 'tool_result' AND b.tool_call_id IS NOT NULL ORDER BY m.seq, b.idx`)
      .raw(),
    resultById: db.prepare('SELECT is_error, text FROM blocks WHERE id = ?'),
  };
}

/** The outcome of one commit call given its result (undefined: no result stored yet, counts nothing). */
export function commitOutcome(command: string, result: { is_error: number; text: string } | undefined): CommitCount {
  if (!result || result.is_error) return { commits: 0, hashes: [] };
  // git's summary line proves a commit even when a later command of the line printed a failure.
  const hashes = [...result.text.matchAll(COMMIT_LINE)].map((m) => m[1]!);
  if (hashes.length > 0) return { commits: hashes.length, hashes };
  return FAILED.test(result.text) ? { commits: 0, hashes: [] } : { commits: countCommits(command), hashes: [] };
}

/** The blocks and messages a file transaction appended to a session: those from these ids on. */
export interface AppendedFrom {
  block: number;
  message: number;
}

/**
 * Successful commits of a session and their hashes; with `from`, only those of the calls appended from
 * there on, or undefined when one was appended to an older message (its hashes would not go last).
 */
export function countSuccessfulCommits(
  statements: CommitStatements,
  sessionId: number,
  parse: (toolInput: string | null, text: string) => unknown,
  from?: AppendedFrom,
): CommitCount | undefined {
  const commitCalls: { callId: string; command: string }[] = [];
  const calls = from ? statements.callsFrom.iterate(from.block, sessionId) : statements.calls.iterate(sessionId);
  for (const call of calls as Iterable<{
    tool_call_id: string | null;
    tool_name: string | null;
    tool_input: string | null;
    text: string;
    message_id: number;
  }>) {
    if (classifyTool(call.tool_name) !== 'bash' || !call.tool_call_id) continue;
    const command = shellCommand(parse(call.tool_input, call.text));
    if (!command || countCommits(command) === 0) continue;
    if (from && call.message_id < from.message) return undefined;
    commitCalls.push({ callId: call.tool_call_id, command });
  }
  const results = resultsOf(statements, sessionId, commitCalls);
  const total: CommitCount = { commits: 0, hashes: [] };
  for (const { callId, command } of commitCalls) {
    const outcome = commitOutcome(command, results(callId));
    total.commits += outcome.commits;
    total.hashes.push(...outcome.hashes);
  }
  return total;
}

type StoredResult = { is_error: number; text: string } | undefined;

/**
 * The first stored result of each call: looked up alone for one call, else found in one pass over the
 * session's results (each lookup reads through the session's results, long tool outputs included).
 */
function resultsOf(
  statements: CommitStatements,
  sessionId: number,
  calls: { callId: string }[],
): (callId: string) => StoredResult {
  if (calls.length <= 1) return (callId) => statements.result.get(sessionId, callId) as StoredResult;
  const wanted = new Set(calls.map((c) => c.callId));
  const first = new Map<string, number>();
  for (const [callId, id] of statements.results.iterate(sessionId) as Iterable<[string, number]>) {
    if (!wanted.has(callId) || first.has(callId)) continue;
    first.set(callId, id);
    if (first.size === wanted.size) break;
  }
  return (callId) => {
    const id = first.get(callId);
    return id === undefined ? undefined : (statements.resultById.get(id) as StoredResult);
  };
}
