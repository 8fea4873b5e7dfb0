// Hostile input in the places strata finds on its own (FIFOs in the agents' default folders) and through the
// hook, MCP and UI entry points: every run is bounded, so a hang fails its test instead of freezing the worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, FIXTURES, spawnCli, tempDir } from './support/cli.js';
import { BOUND_MS, runBounded } from './support/bounded-run.js';

const ORDINARY = join(
  FIXTURES,
  'claude-code',
  'omarchy-backup',
  'projects',
  '-home-vwestberg-Claude',
  '1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl',
);

let root: string;
let env: Record<string, string>;

beforeAll(() => {
  root = tempDir('strata-hostile-defaults-');
  const home = join(root, 'home');
  const opencode = join(home, '.local', 'share', 'opencode');
  const legacy = join(root, 'legacy-data', 'opencode', 'storage', 'session', 'global');
  const claude = join(home, '.claude', 'projects', '-work-x');
  mkdirSync(opencode, { recursive: true });
  mkdirSync(legacy, { recursive: true });
  mkdirSync(claude, { recursive: true });
  copyFileSync(ORDINARY, join(claude, 'ordinary.jsonl'));
  execFileSync('mkfifo', [join(opencode, 'opencode.db'), join(legacy, 'ses_1.json'), join(claude, 'pipe.jsonl')]);
  env = { HOME: home, STRATA_HOME: join(root, 'data') };
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('FIFOs in default roots', () => {
  it('ingest lists them as not regular files and stores the rest, without hanging', async () => {
    const r = await runBounded(['ingest', '--json'], env);
    expect(r.signal).toBeNull();
    const report = JSON.parse(r.stdout) as { problems: { path: string; reason: string }[]; messagesAdded: number };
    const reasons = Object.fromEntries(report.problems.map((p) => [p.path.slice(root.length), p.reason]));
    expect(reasons['/home/.local/share/opencode/opencode.db']).toBe('not a regular file (FIFO)');
    expect(reasons['/home/.claude/projects/-work-x/pipe.jsonl']).toBe('not a regular file (FIFO)');
    expect(report.messagesAdded).toBeGreaterThan(0);
  });

  it('the legacy OpenCode layout: storage/session/*/*.json as a FIFO is listed', async () => {
    const r = await runBounded(['ingest', '--json'], { ...env, XDG_DATA_HOME: join(root, 'legacy-data') });
    expect(r.signal).toBeNull();
    expect(r.stdout).toContain('storage/session/global/ses_1.json');
    expect(r.stdout).toContain('not a regular file (FIFO)');
  });

  it('hook ingest --client opencode returns', async () => {
    const r = await runBounded(['hook', 'ingest', '--client', 'opencode'], env, '{"hook_event_name":"session.idle"}');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
  });

  it('the MCP refresh answers a search', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: { PATH: process.env.PATH ?? '', TZ: 'UTC', NO_COLOR: '1', ...env },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'strata-hostile', version: '1.0.0' });
    await client.connect(transport);
    try {
      const answer = await client.callTool({ name: 'search', arguments: { query: 'anything' } }, undefined, {
        timeout: BOUND_MS,
      });
      expect(answer).toHaveProperty('content');
    } finally {
      await client.close();
    }
  });
});

describe('hook stdin and payloads', () => {
  it('a payload larger than 16 MB is one line, exit 1, also in hooks.log', async () => {
    const r = await runBounded(['hook', 'ingest'], env, `{"transcript_path":"${'x'.repeat(17 * 1024 * 1024)}`);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('strata: hook payload larger than 16 MB; nothing done\n');
    expect(readFileSync(join(env.STRATA_HOME!, 'hooks.log'), 'utf8')).toContain('hook ingest: hook payload larger');
  });

  it('an endless stdin (/dev/zero, or an unfinished JSON value) returns: no payload, or the 16 MB line', async () => {
    for (const source of ['/dev/zero', 'unfinished']) {
      const child = spawnCli(
        ['hook', 'ingest'],
        { ...env, STRATA_HOME: join(root, 'endless') },
        {
          stdio: [source === '/dev/zero' ? openSync(source, 'r') : 'pipe', 'pipe', 'pipe'],
        },
      );
      const feed = setInterval(() => child.stdin?.write('{"a":'.repeat(100_000)), 1);
      child.stdin?.on('error', () => {});
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), BOUND_MS);
      const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
        child.on('close', (c, s) => done([c, s])),
      );
      clearInterval(feed);
      clearTimeout(timer);
      expect(signal, source).toBeNull();
      if (source === 'unfinished')
        expect([code, stderr]).toEqual([1, 'strata: hook payload larger than 16 MB; nothing done\n']);
      else expect(code).toBe(0);
    }
  });

  it('a payload followed by a stdin left open is read up to its end', async () => {
    const payload = JSON.stringify({ hook_event_name: 'SessionEnd', transcript_path: ORDINARY, cwd: root });
    const r = await runBounded(['hook', 'ingest'], { ...env, STRATA_HOME: join(root, 'open-stdin') }, payload, true);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(root, 'open-stdin', 'strata.db'))).toBe(true);
  });

  it('control characters in a payload path are escaped on stderr and in hooks.log', async () => {
    const home = join(root, 'escapes');
    const path = '/nowhere/a\u001b]0;pwned\u0007b\n2026-01-01T00:00:00.000Z forged line';
    const r = await runBounded(
      ['hook', 'ingest'],
      { ...env, STRATA_HOME: home },
      JSON.stringify({ transcript_path: path }),
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'strata: hook ingest: no transcript file at /nowhere/a\\u001b]0;pwned\\u0007b\\n' +
        '2026-01-01T00:00:00.000Z forged line\n',
    );
    const log = readFileSync(join(home, 'hooks.log'), 'utf8');
    expect(log.trimEnd().split('\n')).toHaveLength(1);
    expect(log).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });
});

describe('bad arguments', () => {
  it('a --since span too long for a date is one line, exit 2', async () => {
    const r = await runBounded(['index', '--since', '99999999999999d'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('strata: invalid time "99999999999999d": the span is too long\n');
  });
});

describe('NUL crash padding', () => {
  it('is stripped from the head and from a line it prefixes; the lines are kept', async () => {
    const dir = join(root, 'nul');
    mkdirSync(dir, { recursive: true });
    const lines = readFileSync(ORDINARY, 'utf8').split('\n').filter(Boolean);
    const padded = `${lines[0]}\n${'\u0000'.repeat(300)}${lines.slice(1).join('\n')}\n`;
    writeFileSync(join(dir, '1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl'), padded);
    const r = await runBounded(['ingest', '--json', dir], { ...env, STRATA_HOME: join(root, 'nul-data') });
    const clean = await runBounded(['ingest', '--json', ORDINARY], { ...env, STRATA_HOME: join(root, 'nul-clean') });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).messagesAdded).toBe(JSON.parse(clean.stdout).messagesAdded);
  });
});
