// Several processes opening a fresh store at the same moment: each migration runs once, every opener succeeds.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO, tempDir } from './support/cli.js';

const OPENER = `
const { openStore } = await import(${JSON.stringify(join(REPO, 'dist', 'store', 'db.js'))});
const startAt = Number(process.argv[2]);
while (Date.now() < startAt) {}
try {
  const store = openStore(process.argv[1]);
  const sources = store.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sources'").get().n;
  store.close();
  process.stdout.write(String(sources));
} catch (error) {
  process.stderr.write(String(error && error.message));
  process.exit(1);
}`;

function runOpener(path: string, startAt: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', OPENER, path, String(startAt)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('opening a fresh store from several processes at once', () => {
  it('migrates it once; no opener fails with "table already exists"', async () => {
    for (let round = 0; round < 4; round++) {
      const path = join(tempDir('strata-race-'), 'strata.db');
      // Every process spins until the same instant, so their version reads and migrations overlap.
      const startAt = Date.now() + 1500;
      const results = await Promise.all(Array.from({ length: 4 }, () => runOpener(path, startAt)));
      for (const r of results) {
        expect(r.stderr, `round ${round}`).toBe('');
        expect(r.code).toBe(0);
        expect(r.stdout).toBe('1');
      }
    }
  });
});
