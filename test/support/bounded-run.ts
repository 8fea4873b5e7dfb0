// Runs the built CLI with a bound: a hang is killed and shows as a signal, so it fails its test instead of
// freezing the worker. stdin is written, then closed unless the case needs it held open.
import type { ChildProcess } from 'node:child_process';
import { runCliAsync, type CliResult } from './cli.js';

// A hang guard, not a speed check: a run on a machine loaded many times over still ends well within it.
export const BOUND_MS = 120_000;

/** Runs the built CLI with `stdin` (then closed, unless `keepOpen`), killed after BOUND_MS. */
export async function runBounded(
  args: string[],
  runEnv: Record<string, string>,
  stdin = '',
  keepOpen = false,
): Promise<CliResult & { signal: NodeJS.Signals | null }> {
  let timer: NodeJS.Timeout | undefined;
  let child: ChildProcess | undefined;
  const result = await runCliAsync(args, runEnv, (started) => {
    child = started;
    timer = setTimeout(() => started.kill('SIGKILL'), BOUND_MS);
    started.stdin?.on('error', () => {});
    if (keepOpen) started.stdin?.write(stdin);
    else started.stdin?.end(stdin);
  });
  clearTimeout(timer);
  child?.stdin?.destroy();
  return result;
}
