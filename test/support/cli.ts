// The one way tests run the built CLI: a pinned environment (PATH, HOME, UTC, no colour) and the caller's
// STRATA_HOME, synchronously, in the background, or as a long-running child.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './paths.js';

export { FIXTURES, REPO, tempDir } from './paths.js';

export const CLI = join(REPO, 'dist', 'cli', 'main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The pinned environment every CLI run gets (PATH, HOME, UTC, no colour), plus `env`. */
function cliEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: env.HOME ?? tmpdir(), TZ: 'UTC', NO_COLOR: '1', ...env };
}

/**
 * Runs the built CLI (or `entry`, e.g. the bin script) to completion. Asynchronous on purpose: a test
 * worker blocked in a child for over 60 s misses vitest's RPC deadline on a loaded machine.
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
  options: SpawnOptions & { entry?: string; input?: string | Buffer } = {},
): Promise<CliResult> {
  const { entry = CLI, input, ...spawnOptions } = options;
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [entry, ...args], { env: cliEnv(env), ...spawnOptions });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) =>
      resolveRun({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  });
}

/** Starts the built CLI as a child process (long-running commands: watch, ui, mcp). */
export function spawnCli(args: string[], env: Record<string, string>, options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { env: cliEnv(env), ...options });
}

/** Runs the built CLI without blocking this process's event loop (a test server here must answer it). */
export function runCliAsync(
  args: string[],
  env: Record<string, string>,
  onStart?: (child: ChildProcess) => void,
): Promise<CliResult & { signal: NodeJS.Signals | null }> {
  return new Promise((resolveRun) => {
    const child = spawnCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code, signal) => resolveRun({ code: code ?? -1, signal, stdout, stderr }));
    onStart?.(child);
  });
}

/** A child process holding the lock at `path` (as strata's writers take it) until `stop()` or SIGKILL. */
export async function holdLock(
  path: string,
  command: string,
): Promise<{ pid: number; stop(signal?: NodeJS.Signals): Promise<void> }> {
  const script = `const { acquireLock } = await import(${JSON.stringify(join(REPO, 'dist', 'shared', 'file-lock.js'))});
acquireLock(process.argv[1], { command: process.argv[2] });
process.stdout.write('held\\n');
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, path, command], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolveHeld, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('held') && resolveHeld());
    child.on('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
  });
  return {
    pid: child.pid!,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolveStopped) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolveStopped();
        child.once('exit', () => resolveStopped());
        child.kill(signal);
      }),
  };
}
