// The writer lock dies with its process: a lock file left empty, naming another host or a dead process
// never blocks; a live holder makes others wait, then exit 3 naming it and saying how to recover.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock } from '../src/shared/file-lock.js';
import { FIXTURES, holdLock, runCli, tempDir } from './support/cli.js';

const FILE = join(
  FIXTURES,
  'claude-code',
  'omarchy-backup',
  'projects',
  '-home-vwestberg-Claude',
  '1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl',
);

describe('the writer lock', () => {
  it(
    'is taken at once over a lock file left empty (power ' + 'loss) or naming another host (container restart)',
    async () => {
      for (const content of [
        '',
        JSON.stringify({ pid: 1, host: 'another-host', command: 'strata ingest', since: '2025-01-01T00:00:00Z' }),
        '{"pid":',
      ]) {
        const home = tempDir();
        mkdirSync(home, { recursive: true });
        writeFileSync(join(home, 'strata.db.lock'), content);
        const started = Date.now();
        const r = await runCli(['ingest', FILE], { STRATA_HOME: home, STRATA_LOCK_TIMEOUT_MS: '20000' });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).not.toMatch(/waiting/);
        expect(Date.now() - started).toBeLessThan(15_000);
        expect(existsSync(join(home, 'strata.db.lock'))).toBe(false);
      }
    },
  );

  it(
    'makes a second writer wait for a live holder, then exit 3 naming it with a way out; freed when the holder is ' +
      'killed',
    async () => {
      const home = tempDir();
      mkdirSync(home, { recursive: true });
      const holder = await holdLock(join(home, 'strata.db.lock'), 'strata ingest (test holder)');
      try {
        const r = await runCli(['ingest', FILE], { STRATA_HOME: home, STRATA_LOCK_TIMEOUT_MS: '500' });
        expect(r.code).toBe(3);
        expect(r.stderr).toMatch(new RegExp(`held by pid ${holder.pid} .*test holder`));
        expect(r.stderr).toMatch(new RegExp(`stop it \\(kill ${holder.pid}\\) and run again`));
      } finally {
        await holder.stop('SIGKILL');
      }
      const after = await runCli(['ingest', FILE], { STRATA_HOME: home, STRATA_LOCK_TIMEOUT_MS: '500' });
      expect(after.code, after.stderr).toBe(0);
    },
  );

  it('in one process, a second acquire waits for the first and succeeds after its release', () => {
    const dir = tempDir();
    const path = join(dir, 'x.lock');
    const first = acquireLock(path, { command: 'first' });
    expect(() => acquireLock(path, { command: 'second', timeoutMs: 200, pollMs: 20 })).toThrow(
      /held by pid \d+ .*first/,
    );
    first.release();
    const second = acquireLock(path, { command: 'second', timeoutMs: 200 });
    second.release();
    expect(existsSync(path)).toBe(false);
  });
});
