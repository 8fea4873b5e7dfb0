// Owns counting a session's git commits by their outcome: a `git commit` run through a shell counts only
// when its result succeeded, and then by the hashes git printed (`[main 1a2b3c4] message`). Read only for
// sessions whose calls hold a commit at all, so the ingest of other sessions pays nothing.
import type { Database, Statement } from 'better-sqlite3';
import { countCommits } from './edit-stats.js';
import { classifyTool, shellCommand } from './tool-classes.js';

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
  result: Statement;
}

export function prepareCommitStatements(db: Database): CommitStatements {
  return {
    calls: db.prepare(`SELECT b.tool_call_id, b.tool_name, b.tool_input, b.text FROM messages m JOIN blocks b ON
        b.message_id = m.id
      WHERE m.session_id = ? AND b.kind = 'tool_call' AND instr(b.text, 'commit') > 0 ORDER BY m.seq, b.idx`),
    result: db.prepare(`SELECT b.is_error, b.text FROM messages m JOIN blocks b ON b.message_id = m.id
      WHERE m.session_id = ? AND b.kind = 'tool_result' AND b.tool_call_id = ? LIMIT 1`),
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

/** Successful commits of a session and their hashes. */
export function countSuccessfulCommits(
  statements: CommitStatements,
  sessionId: number,
  parse: (toolInput: string | null, text: string) => unknown,
): CommitCount {
  const total: CommitCount = { commits: 0, hashes: [] };
  for (const call of statements.calls.iterate(sessionId) as Iterable<{
    tool_call_id: string | null;
    tool_name: string | null;
    tool_input: string | null;
    text: string;
  }>) {
    if (classifyTool(call.tool_name) !== 'bash' || !call.tool_call_id) continue;
    const command = shellCommand(parse(call.tool_input, call.text));
    if (!command || countCommits(command) === 0) continue;
    const outcome = commitOutcome(
      command,
      statements.result.get(sessionId, call.tool_call_id) as { is_error: number; text: string } | undefined,
    );
    total.commits += outcome.commits;
    total.hashes.push(...outcome.hashes);
  }
  return total;
}
