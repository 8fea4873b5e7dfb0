// Gives one test run its own temporary folder (TMPDIR, which os.tmpdir() reads) and removes it when the run
// ends, so the folders tests create with mkdtemp never pile up in /tmp. Readable by all: one test runs the
// CLI as `nobody`.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'strata-vitest-'));
  chmodSync(dir, 0o755);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
