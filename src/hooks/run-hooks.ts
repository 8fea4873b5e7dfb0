// Owns `strata hook ingest` and `strata hook context` behind the CLI: read the client's payload, do the
// work over the core, and answer with only the hook protocol's JSON on stdout. A hook never blocks its
// client: inside a strata sub-call it does nothing, a held store lock queues the ingest for the next
// writer's run (and says so in hooks.log), and failures are logged (stderr and hooks.log) with a
// non-blocking exit code.
import { existsSync, statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { openStore } from '../store/db.js';
import { storePath, homeDir, type Env } from '../shared/paths.js';
import { StrataError, describeError } from '../shared/errors.js';
import { isSubcall } from '../core/llm/reentrancy.js';
import { latestProjectSessions, projectSessionLine } from '../core/retrieval/project-sessions.js';
import { ensureListing } from '../core/retrieval/listing-table.js';
import { callingSessionIds } from '../core/retrieval/calling-session.js';
import type { AgentName } from '../shared/model.js';
import { parseHookPayload, type HookClient, type HookPayload } from './payload.js';
import { projectLogbookText } from './logbook-context.js';
import { sessionStartOutput } from './hook-output.js';
import { logHookLine } from './hook-log.js';
import { countTokens } from '../shared/tokenizer.js';
import { recordDeferred } from '../core/ingest/deferred.js';
import { rescanPending } from '../core/redaction/rescan-pending.js';
import { STRATA_LOGBOOK_HEADING, STRATA_SESSIONS_HEADING } from '../shared/strata-echo.js';

export interface HookIo {
  stdin: string;
  stdout: Writable;
  stderr: Writable;
  env: Env;
  cwd: string;
}

/** Exit codes every supported client treats as "go on": 0, or 1 for a failure it only logs. */
const HOOK_OK = 0;
const HOOK_FAILED = 1;

// Without a transcript path, the client's own default locations are ingested (strata reads no Cursor history).
const CLIENT_AGENT: Partial<Record<HookClient, AgentName>> = {
  'claude-code': 'claude-code',
  codex: 'codex',
  gemini: 'gemini',
  opencode: 'opencode',
};

export interface HookIngestOutcome {
  status: 'skipped' | 'ingested' | 'deferred' | 'failed';
  messagesAdded?: number;
}

/** Ingests the payload's transcript (or, without one, the client's default locations); always exits 0. */
export async function runHookIngest(io: HookIo, client: HookClient = 'claude-code'): Promise<HookIngestOutcome> {
  if (isSubcall(io.env)) return { status: 'skipped' };
  const payload = parseHookPayload(io.stdin);
  const transcript = payload.transcriptPath;
  if (transcript && (!existsSync(transcript) || !statSync(transcript).isFile())) {
    logHookLine(io.env, io.stderr, `hook ingest: no transcript file at ${transcript}`);
    return { status: 'failed' };
  }
  const agent = CLIENT_AGENT[client];
  if (!transcript && !agent) return { status: 'skipped' };
  let store;
  try {
    store = openStore(storePath(io.env));
    // Loaded here: the session-start hook, which a client waits for, never needs the ingest engine.
    const { ingest } = await import('../core/ingest/ingest.js');
    const report = await ingest({
      store,
      paths: transcript ? [transcript] : [],
      ...(transcript || !agent ? {} : { agents: [agent] }),
      env: io.env,
      cwd: payload.cwd ?? io.cwd,
      lockTimeoutMs: 0,
      afterWrite: (db) => ensureListing(db, homeDir(io.env)),
    });
    return { status: 'ingested', messagesAdded: report.messagesAdded };
  } catch (error) {
    if (error instanceof StrataError && error.code === 'LOCKED') {
      deferIngest(io, store?.path ?? storePath(io.env), transcript, agent, payload.cwd ?? io.cwd);
      return { status: 'deferred' };
    }
    logHookLine(io.env, io.stderr, `hook ingest: ${describeError(error)}`);
    return { status: 'failed' };
  } finally {
    store?.close();
  }
}

/** Records the transcript (or the client's default locations) for the next writer, and says so in hooks.log. */
function deferIngest(
  io: HookIo,
  path: string,
  transcript: string | undefined,
  agent: AgentName | undefined,
  cwd: string,
) {
  const what = transcript ?? `the ${agent} history`;
  try {
    recordDeferred(path, {
      paths: transcript ? [transcript] : [],
      ...(transcript || !agent ? {} : { agents: [agent] }),
      cwd,
    });
    logHookLine(io.env, io.stderr, `hook ingest: the store is busy; ${what} is queued for the next writer`);
  } catch (error) {
    logHookLine(
      io.env,
      io.stderr,
      `hook ingest: the store is busy and ${what} could not be queued: ${describeError(error)}`,
    );
  }
}

const DEFAULT_CONTEXT_BUDGET = 1500;
const LATEST_SESSIONS = 5;

/** The context a new session of `projectDir` starts with, or null when the store knows no session of it. */
function sessionStartContext(
  db: import('better-sqlite3').Database,
  projectDir: string,
  budget: number,
  env: Env,
  payload: HookPayload,
): string | null {
  // A resumed or compacted session is stored already: it is not one of "the latest sessions" it is told of.
  const own = callingSessionIds(db, env, payload);
  const all = latestProjectSessions(db, projectDir, LATEST_SESSIONS + own.size, homeDir(env));
  if (all.length === 0) return null;
  const sessions = all.filter((s) => !own.has(s.id)).slice(0, LATEST_SESSIONS);
  // The headings mark the context as strata's, so that an ingest of the transcript keeps it out of search.
  const latest =
    (sessions.length > 0 ? `${STRATA_SESSIONS_HEADING}\n${sessions.map(projectSessionLine).join('\n')}\n` : '') +
    'Search or read earlier sessions with `strata search <words>` and `strata read <id> [N-M]` (or the strata MCP ' +
    'tools).';
  // The logbook gets what the session lines leave of the budget (its heading included).
  const heading = `${STRATA_LOGBOOK_HEADING}\n`;
  const logbook = projectLogbookText(db, projectDir, () => budget - countTokens(latest + heading) - 2);
  if (logbook) return `${heading}${logbook}\n${latest}`;
  return sessions.length > 0 ? latest : null;
}

/** Prints the client's session-start JSON with the project's context; prints nothing when there is none. */
export async function runHookContext(
  io: HookIo,
  client: HookClient = 'claude-code',
  budget = DEFAULT_CONTEXT_BUDGET,
): Promise<number> {
  if (isSubcall(io.env)) return HOOK_OK;
  const payload = parseHookPayload(io.stdin);
  const path = storePath(io.env);
  if (!existsSync(path)) return HOOK_OK;
  let store;
  try {
    store = openStore(path);
    let context = sessionStartContext(store.db, payload.cwd ?? io.cwd, budget, io.env, payload);
    // Stored texts waiting for a scan with newer secret rules reach the agent redacted with them.
    if (context && rescanPending(store.db))
      context = (await import('../core/redaction/outgoing.js')).redactOutgoingText(context);
    if (context) io.stdout.write(JSON.stringify(sessionStartOutput(client, context)) + '\n');
    return HOOK_OK;
  } catch (error) {
    logHookLine(io.env, io.stderr, `hook context: ${describeError(error)}`);
    return HOOK_FAILED;
  } finally {
    store?.close();
  }
}
