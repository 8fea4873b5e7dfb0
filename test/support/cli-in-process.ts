// Runs the CLI inside the test's own process (src/cli/main.ts's runCli with a captured io): for a test that
// repeats one command many times, where a child per run only repeats the start-up. Every command such a
// test runs keeps at least one run of the built CLI as a child in the same file.
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';
import type { CliResult } from './cli.js';

function collector(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
}

/** The CLI run in-process with the pinned environment runCli gives a child (PATH, HOME, UTC, no colour). */
export async function runCliInProcess(
  args: string[],
  env: Record<string, string>,
  { cwd = process.cwd() }: { cwd?: string } = {},
): Promise<CliResult> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const code = await runCli(args, {
    stdout: collector(out),
    stderr: collector(err),
    env: { PATH: process.env.PATH ?? '', HOME: env.HOME ?? tmpdir(), TZ: 'UTC', NO_COLOR: '1', ...env },
    cwd,
    stderrIsTty: false,
  });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}
