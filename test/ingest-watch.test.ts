// End-to-end: `strata ingest --watch` spawned from the built CLI on a copy of a real transcript: an
// appended turn becomes searchable, a second watcher exits 3, Ctrl-C (SIGINT) ends the watcher cleanly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli, spawnCli } from './support/cli.js';

const ROOT = process.cwd();
const SESSION = '1fb5e404-604d-4a2b-baf1-3beb42a67371';
const SOURCE = resolve(
  ROOT,
  '../shared/fixtures/real/claude-code/omarchy-backup/projects/-home-vwestberg-Claude',
  `${SESSION}.jsonl`,
);

let base: string;
let watched: string;
let watcher: ChildProcess;
let stderr = '';
const env = () => ({ HOME: join(base, 'home'), STRATA_HOME: join(base, 'data') });

async function strata(args: string[]) {
  return await runCli(args, env(), { cwd: base });
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'strata-watch-e2e-'));
  watched = join(base, 'projects', '-home-vwestberg-Claude');
  mkdirSync(watched, { recursive: true });
  copyFileSync(SOURCE, join(watched, `${SESSION}.jsonl`));
  expect((await strata(['ingest', join(base, 'projects')])).code).toBe(0);
  watcher = spawnCli(['ingest', '--watch', join(base, 'projects')], env(), {
    cwd: base,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  watcher.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  expect(await until(() => stderr.includes('strata: watching '), 30_000)).toBe(true);
});

afterAll(() => {
  if (watcher.exitCode === null) watcher.kill('SIGKILL');
  rmSync(base, { recursive: true, force: true });
});

describe('strata ingest --watch', () => {
  it('makes a turn appended to a watched transcript searchable', async () => {
    const line =
      JSON.stringify({
        type: 'user',
        uuid: 'watch-e2e-1',
        sessionId: SESSION,
        cwd: '/home/vwestberg/Claude',
        timestamp: '2026-04-30T00:00:00.000Z',
        message: { role: 'user', content: 'xylophonicwatch appended' },
      }) + '\n';
    appendFileSync(join(watched, `${SESSION}.jsonl`), line);
    // Polled with a generous bound: the debounce is 300 ms, the shared machine's speed varies.
    expect(
      await until(async () => (await strata(['search', 'xylophonicwatch', '-l'])).stdout.includes('1fb5e404'), 30_000),
    ).toBe(true);
    expect(await until(() => /1 file ingested, 1 messages added/.test(stderr), 10_000)).toBe(true);
  });

  it('uses (next to) no CPU while idle: no polling', async () => {
    // utime + stime in clock ticks (fields 14 and 15 of /proc/<pid>/stat, after the command name).
    const cpuTicks = () =>
      readFileSync(`/proc/${watcher.pid}/stat`, 'utf8')
        .split(') ')[1]!
        .split(' ')
        .slice(11, 13)
        .reduce((a, b) => a + Number(b), 0);
    const before = cpuTicks();
    await new Promise((r) => setTimeout(r, 1500));
    expect(cpuTicks() - before).toBeLessThanOrEqual(5);
  });

  it('a second watcher of the same store exits 3', async () => {
    const second = await strata(['ingest', '--watch', join(base, 'projects')]);
    expect(second.code).toBe(3);
    expect(second.stderr).toMatch(/^strata: .*strata\.db\.watch\.lock is held by pid \d+/);
  });

  it('Ctrl-C stops the watcher with exit code 0', async () => {
    const exited = new Promise<number | null>((r) => watcher.once('exit', (code) => r(code)));
    watcher.kill('SIGINT');
    expect(await exited).toBe(0);
    // The lock went with it: a new watcher starts (and is stopped at once).
    const again = spawnCli(['ingest', '--watch', join(base, 'projects')], env(), {
      cwd: base,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let text = '';
    again.stderr!.on('data', (c) => (text += String(c)));
    expect(await until(() => text.includes('strata: watching '), 30_000)).toBe(true);
    const done = new Promise<number | null>((r) => again.once('exit', (code) => r(code)));
    again.kill('SIGINT');
    expect(await done).toBe(0);
  });
});
