// The `strata` command as installed (package.json's bin, bin/strata.cjs, which sizes libuv's thread pool
// first): it runs the CLI, with its output and exit codes.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, runCli, tempDir } from './support/cli.js';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};
const BIN = join(REPO, pkg.bin.strata!);

function strata(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { HOME: tempDir(), STRATA_HOME: tempDir(), ...env }, { entry: BIN });
}

describe('the strata command', () => {
  it('runs the CLI: output, usage errors and their exit code', () => {
    expect(strata(['--version'])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    const missing = join(tempDir(), 'no-such-folder');
    const r = strata(['ingest', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(missing);
  });
});
