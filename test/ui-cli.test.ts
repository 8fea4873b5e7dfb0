// `strata blame` and `strata export --html` through the built CLI on the ui fixture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './support/cli.js';
import { UI_SESSION, writeUiFixture } from './support/ui-fixture.js';

let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = tempDir('strata-ui-cli-');
  env = { STRATA_HOME: join(dir, 'home'), HOME: dir };
  const r = await runCli(['ingest', writeUiFixture(dir)], env);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('strata blame', () => {
  it('lists the messages that touched a file, newest first, with the edit diff', async () => {
    const r = await runCli(['blame', 'src/app.ts'], env, { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^2026-11-20 09:00 {2}read +7e57c0de 6 +claude-code +Read/);
    expect(r.stdout).toMatch(/edited +7e57c0de 2 .*\n {4}-const timeout = 150;\n {4}\+const timeout = 600;/);
  });

  it('takes FILE:LINE and Windows paths, and prints JSON with --json', async () => {
    const r = await runCli(['blame', 'C:\\repo\\src\\new.ts:1', '--json'], env, { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.line).toBe(1);
    expect(json.entries.map((e: { action: string; sessionId: string }) => [e.action, e.sessionId])).toEqual([
      ['created', UI_SESSION],
    ]);
    expect(json.entries[0].hunks[0].touchesLine).toBe(true);
  });

  it('says so on stderr when nothing mentions the file', async () => {
    const r = await runCli(['blame', 'nowhere/none.ts'], env, { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no session mentions nowhere\/none.ts/);
  });
});

describe('strata ui', () => {
  it('rejects a bad port and a port in use with usage errors', async () => {
    const bad = await runCli(['ui', '--port', 'abc'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^strata: --port must be /);
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const busy = await runCli(['ui', '--port', String(port)], env);
    taken.close();
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(new RegExp(`port ${port} is in use`));
  });
});

describe('strata export --html', () => {
  it('writes one self-contained file whose embedded data cannot close its script element', async () => {
    const out = join(dir, 'out', 'session.html');
    const r = await runCli(['export', '7e57c0de', '--html', out], env, { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\//i);
    expect(html).toContain('\\u003cscript>window.__pwned');
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(readdirSync(join(dir, 'out'))).toEqual(['session.html']);
  });

  it('fails with a usage error without --html or an unknown session', async () => {
    expect((await runCli(['export', '7e57c0de'], env)).code).toBe(2);
    const missing = await runCli(['export', 'ffffffff', '--html', join(dir, 'x.html')], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^strata: no session matches "ffffffff"/);
  });
});
