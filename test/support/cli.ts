// Shared helpers for end-to-end tests: run the built CLI with a pinned environment and a temp STRATA_HOME.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '..', '..');
export const CLI = join(REPO, 'dist', 'cli', 'main.js');
export const FIXTURES = resolve(REPO, '..', 'shared', 'fixtures', 'real');

export function tempDir(prefix = 'strata-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>, options: SpawnSyncOptions = {}): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: env.HOME ?? tmpdir(), TZ: 'UTC', NO_COLOR: '1', ...env },
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  return { code: result.status ?? -1, stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? '') };
}

/** A child process holding the lock at `path` (as strata's writers take it) until `stop()` or SIGKILL. */
export async function holdLock(
  path: string,
  command: string,
): Promise<{ pid: number; stop(signal?: NodeJS.Signals): Promise<void> }> {
  const { spawn } = await import('node:child_process');
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
