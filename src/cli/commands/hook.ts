// Owns `strata hook`: the lifecycle-hook entry points clients run (ingest at session end or before
// compaction, context at session start) and `strata hook install`. stdout carries only hook JSON.
import type { Command } from 'commander';
import { StrataError, usageError } from '../../shared/errors.js';
import { configWriteLine } from './config-write-line.js';
import type { CliIo } from '../io.js';

const CLIENTS = ['claude-code', 'codex', 'gemini', 'cursor', 'opencode'] as const;
type Client = (typeof CLIENTS)[number];

const HOOK_EXAMPLES = `
Examples:
  strata hook ingest < payload.json            ingest the transcript a SessionEnd/PreCompact payload names
  strata hook context --budget 1000 < payload.json
  strata hook install --client codex           register both hooks in Codex's hooks file
Clients run these with the hook's JSON on stdin (transcript_path, session_id, cwd, ...). They never block
the client: a held store lock leaves the ingest to the next run, failures go to stderr and to
hooks.log in the data directory, and nothing runs inside a strata sub-call (STRATA_SUBCALL).`;

function parseClient(value: string | undefined): Client {
  const client = value ?? 'claude-code';
  if (!(CLIENTS as readonly string[]).includes(client))
    throw usageError(`--client must be one of ${CLIENTS.join(', ')}, got "${client}"`);
  return client as Client;
}

/** The payload on stdin: its first JSON value, at most 16 MB (more is exit 1, also written to hooks.log). */
async function readStdin(io: CliIo, command: string): Promise<string> {
  if (process.stdin.isTTY) return '';
  const [{ readHookPayload }, { appendHookLog }] = await Promise.all([
    import('../../hooks/read-payload.js'),
    import('../../hooks/hook-log.js'),
  ]);
  try {
    return await readHookPayload(process.stdin);
  } catch (error) {
    appendHookLog(io.env, `hook ${command}: ${(error as Error).message}`);
    throw error;
  }
}

export function registerHookCommand(program: Command, io: CliIo): void {
  const hook = program
    .command('hook')
    .description('lifecycle hooks for coding agents: keep the store fresh, hand context to new sessions')
    .addHelpText('after', HOOK_EXAMPLES);
  hook
    .command('ingest')
    .description('ingest the transcript named by the hook payload on stdin (always exits 0)')
    .option('--client <name>', `whose payload this is: ${CLIENTS.join(', ')} (default claude-code)`)
    .option('--push [remote]', 'then push to a team store (failures are logged; the hook still exits 0)')
    .addHelpText('after', HOOK_EXAMPLES)
    .action(async (opts: { client?: string; push?: string | boolean }) => {
      const client = parseClient(opts.client);
      const { runHookIngest } = await import('../../hooks/run-hooks.js');
      await runHookIngest(
        { stdin: await readStdin(io, 'ingest'), stdout: io.stdout, stderr: io.stderr, env: io.env, cwd: io.cwd },
        client,
      );
      if (opts.push !== undefined) {
        const { runPush } = await import('./remote.js');
        await runPush(io, typeof opts.push === 'string' ? opts.push : undefined, {}).catch((error: unknown) => {
          io.stderr.write(`strata: push after the hook failed: ${error instanceof Error ? error.message : error}\n`);
        });
      }
    });
  hook
    .command('context')
    .description('print the session-start hook JSON: the project logbook and its latest sessions')
    .option('--client <name>', `answer in this client's format: ${CLIENTS.join(', ')} (default claude-code)`)
    .option('--budget <tokens>', 'tokens of logbook at most (default 1500)', '1500')
    .addHelpText('after', HOOK_EXAMPLES)
    .action(async (opts: { client?: string; budget: string }) => {
      const client = parseClient(opts.client);
      const budget = Number(opts.budget);
      if (!Number.isInteger(budget) || budget < 0)
        throw usageError(`--budget must be a non-negative integer, got "${opts.budget}"`);
      const { runHookContext } = await import('../../hooks/run-hooks.js');
      const code = await runHookContext(
        { stdin: await readStdin(io, 'context'), stdout: io.stdout, stderr: io.stderr, env: io.env, cwd: io.cwd },
        client,
        budget,
      );
      // Exit 1: a failure every client logs without blocking (the detail is already on stderr and in hooks.log).
      if (code !== 0) throw new StrataError('IO', 'hook context failed (see hooks.log in the data directory)');
    });
  hook
    .command('install')
    .description("register strata hook ingest and strata hook context in a client's hooks configuration")
    .requiredOption('--client <name>', `${CLIENTS.join(', ')}`)
    .option('--path <file>', "hooks file to merge into (default: the client's own)")
    .option('--print', 'print the merged file instead of writing it')
    .addHelpText(
      'after',
      `
Examples:
  strata hook install --client codex       $CODEX_HOME/hooks.json: SessionStart, Stop, PreCompact
  strata hook install --client gemini      ~/.gemini/settings.json: SessionStart, SessionEnd, PreCompress
  strata hook install --client cursor      ~/.cursor/hooks.json: sessionStart, sessionEnd, preCompact, stop
  strata hook install --client opencode    ~/.config/opencode/plugins/strata.js (an OpenCode plugin)
  strata hook install --client claude-code ~/.claude/settings.json (or install the plugin instead)
Only strata's own entries are added or replaced; a changed file is backed up first and written
atomically; a file that cannot be parsed is refused.`,
    )
    .action(async (opts: { client: string; path?: string; print?: boolean }) => {
      const client = parseClient(opts.client);
      const [{ hookConfigPath }, { mergeHookConfig }, { readConfigFile, writeConfigFile }, { resolve }] =
        await Promise.all([
          import('../../core/agent-config/clients.js'),
          import('../../core/agent-config/hook-config.js'),
          import('../../core/agent-config/config-file.js'),
          import('node:path'),
        ]);
      const path = opts.path ? resolve(io.cwd, opts.path) : hookConfigPath(client, io.env);
      if (opts.print) {
        io.stdout.write(mergeHookConfig(client, readConfigFile(path), path));
        return;
      }
      const result = writeConfigFile(path, (current) => mergeHookConfig(client, current, path));
      io.stderr.write(configWriteLine(result, io.env, 'already runs the strata hooks'));
      const { hookInstallNotes } = await import('../../core/agent-config/client-notes.js');
      for (const note of hookInstallNotes(client)) io.stderr.write(`strata: next: ${note}\n`);
    });
}
