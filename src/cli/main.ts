#!/usr/bin/env node
// Owns the CLI entry: builds the commander program, runs it, and maps every error to one line and an exit code.
import { Command, CommanderError } from 'commander';
import { createRequire } from 'node:module';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { registerCommands } from './commands/index.js';
import { defaultIo, terminalSafeStream, type CliIo } from './io.js';
import { EXIT_CODES, StrataError, corruptStoreError, describeError, isCorruptDatabaseError } from '../shared/errors.js';
import { assertNotReentrant } from '../core/llm/reentrancy.js';

/** Commands that write or summarize: never run from inside a strata LLM sub-call (hooks re-entering). */
const GUARDED_COMMANDS = new Set(['ingest', 'history-index', 'demo']);

const require = createRequire(import.meta.url);
const pkg = require('../../package.json') as { version: string };

export async function buildProgram(io: CliIo, argv: string[] = []): Promise<Command> {
  const program = new Command();
  program
    .name('strata')
    .description(
      'Local-first memory for coding agents: ingest agent histories, search and read them, pack docs and code into ' +
        'context.',
    )
    .version(pkg.version, '-V, --version')
    .option('--verbose', 'print stack traces on errors')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // Every error is one line, like the others strata prints: `strata: <what> (<where to look>)`.
      outputError: (s, write) => write(`strata: ${s.trim().replace(/^error: /, '')} (see --help)\n`),
    })
    .exitOverride();
  program.addHelpText(
    'after',
    `
Examples:
  strata demo                      ingest built-in example sessions into a temp store and show them
  strata ingest                    ingest every agent history found on this machine
  strata sessions --limit 10       list the newest sessions
  strata search "sqlite migration" search all sessions
Data directory: $STRATA_HOME, else $XDG_DATA_HOME/strata, else ~/.local/share/strata.
Exit codes: 0 ok, 1 runtime error, 2 usage error, 3 lock held by another writer, 4 store unusable.`,
  );
  await registerCommands(program, io, argv);
  program.hook('preAction', (root, action) => {
    // Top-level commands only: `strata hook ingest` handles a sub-call itself (it does nothing, quietly).
    if (action.parent === root && GUARDED_COMMANDS.has(action.name()))
      assertNotReentrant(io.env, `strata ${action.name()}`);
  });
  return program;
}

function rootCause(error: unknown): unknown {
  let e = error;
  for (let depth = 0; depth < 8 && e instanceof Error && e.cause !== undefined; depth++) e = e.cause;
  return e;
}

export function handleError(error: unknown, io: CliIo, verbose: boolean): number {
  if (error instanceof CommanderError) {
    if (
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help'
    )
      return EXIT_CODES.ok;
    return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
  }
  // A damaged database is exit 4 wherever SQLite notices it (a query, a write, a rewrapped error).
  if (isCorruptDatabaseError(error) && !(error instanceof StrataError && error.code === 'STORE_CORRUPT'))
    error = corruptStoreError(undefined, rootCause(error));
  if (error instanceof StrataError) {
    io.stderr.write(`strata: ${error.message}\n`);
    if (verbose && error.stack) io.stderr.write(error.stack + '\n');
    return error.exitCode;
  }
  io.stderr.write(`strata: unexpected error: ${describeError(error)}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr.write(error.stack + '\n');
  return EXIT_CODES.runtime;
}

export async function runCli(argv: string[], rawIo: CliIo = defaultIo()): Promise<number> {
  // Transcripts hold terminal escapes (OSC 52 clipboard writes, screen clears): none reaches stdout raw.
  const io: CliIo = { ...rawIo, stdout: terminalSafeStream(rawIo.stdout) };
  try {
    const program = await buildProgram(io, argv);
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_CODES.ok;
  } catch (error) {
    return handleError(error, io, argv.includes('--verbose'));
  }
}

function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

/** Runs the command line of this process (the `strata` command, bin/strata.cjs, or this file run directly). */
export function main(): void {
  // `strata ... | head`: a closed pipe ends the run quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

if (invokedDirectly()) main();
