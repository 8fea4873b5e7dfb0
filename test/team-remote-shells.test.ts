// blame, logbook show and the MCP server with --remote on a throwaway PostgreSQL cluster: one machine
// ingests and pushes, another reads through the team store and gets the local answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, FIXTURES, runCli, spawnCli, tempDir } from './support/cli.js';
import { postgresMissing, startCluster, type TestCluster } from './support/postgres.js';

const missing = postgresMissing();
if (missing && process.env.CI) throw new Error(`team store tests need PostgreSQL under CI: ${missing}`);
if (missing) console.warn(`skipping remote blame, logbook and MCP tests: ${missing}`);

// A project whose offline logbook holds fixed bugs (the logbook test reads them back from the server).
const PROJECT = '/Users/testuser/Documents/GitHub/projects/example-project/.worktrees/streaming';
let cluster: TestCluster;
const homes = { a: tempDir(), c: tempDir() };
const env = (home: string) => ({ HOME: home, STRATA_HOME: join(home, 'data'), TZ: 'UTC', NO_COLOR: '1' });
const strata = (home: string, args: string[]) => runCli(args, env(home));

/** Starts `strata ui` for `home` and returns a JSON getter of its API; `stop` ends the child. */
async function startUi(home: string, args: string[]) {
  const child = spawnCli(['ui', ...args], env(home));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`strata ui exited ${code}`)));
  });
  const get = async (path: string) => {
    const r = await fetch(new URL(path, url));
    return { status: r.status, body: (await r.json()) as any };
  };
  return { get, stop: () => child.kill('SIGTERM') };
}

describe.skipIf(missing !== undefined)('--remote for blame, logbook show and mcp', () => {
  beforeAll(async () => {
    cluster = await startCluster();
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE strata');
    await admin.end();
    const url = cluster.url('postgres', 'strata');
    for (const home of Object.values(homes)) expect((await strata(home, ['remote', 'add', 'team', url])).code).toBe(0);
    const steps = [
      ['ingest', join(FIXTURES, 'claude-code'), join(FIXTURES, 'codex')],
      ['logbook', '--project', PROJECT],
      ['remote', 'init', 'team'],
      ['push', '--machine', 'laptop-a'],
    ];
    for (const args of steps) {
      const r = await strata(homes.a, args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
  });
  afterAll(async () => cluster?.stop());

  it('blame --remote prints what a local blame prints; nothing found is the same line', async () => {
    for (const args of [['src/lib.rs'], ['lib/backoffice/cart.ex', '--json']]) {
      const local = await strata(homes.a, ['blame', ...args]);
      const remote = await strata(homes.c, ['blame', ...args, '--remote', 'team']);
      expect(remote.code, remote.stderr).toBe(0);
      expect(local.stdout.length).toBeGreaterThan(100);
      expect(remote.stdout).toBe(local.stdout);
    }
    const none = await strata(homes.c, ['blame', 'no/such/file.zz', '--remote', 'team']);
    expect([none.code, none.stderr]).toEqual([0, 'no session mentions no/such/file.zz\n']);
    const other = await strata(homes.c, ['blame', 'src/lib.rs', '--remote', 'team', '--machine', 'laptop-z']);
    expect(other.stderr).toBe('no session mentions src/lib.rs\n');
    const unknown = await strata(homes.c, ['blame', 'src/lib.rs', '--remote', 'nosuch']);
    expect(unknown.code).toBe(2);
  });

  it('blame --remote finds its sessions through the full-text and trigram indexes, never a scan', async () => {
    const { connectTeamStore } = await import('../src/store/team/pg-client.js');
    const { blameSessionsQuery } = await import('../src/core/team/remote-scratch.js');
    const client = await connectTeamStore(cluster.url('postgres', 'strata'));
    try {
      // A few fixture rows: the planner rightly prefers scans, so they are ruled out to see what can serve.
      await client.query('SET enable_seqscan = off');
      await client.query('SET enable_indexscan = off');
      const plans: Record<string, string> = {};
      for (const path of ['src/lib.rs', 'lib/backoffice/cart.ex', 'docs/設定.md']) {
        const query = await blameSessionsQuery(client, path);
        const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${query.text}`, query.values);
        plans[path] = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      }
      expect(plans['src/lib.rs']).toContain('Bitmap Index Scan on blocks_tsv');
      expect(plans['lib/backoffice/cart.ex']).toContain('Bitmap Index Scan on blocks_tsv');
      expect(plans['docs/設定.md']).toContain('Bitmap Index Scan on blocks_trgm');
      for (const plan of Object.values(plans)) expect(plan).not.toContain('Seq Scan on blocks');
    } finally {
      await client.end();
    }
  });

  it('logbook show --remote prints the pushed logbook as the local one', async () => {
    for (const extra of [[], ['--json']]) {
      const local = await strata(homes.a, ['logbook', 'show', '--project', PROJECT, ...extra]);
      const remote = await strata(homes.c, ['logbook', 'show', '--project', PROJECT, '--remote', 'team', ...extra]);
      expect(remote.code, remote.stderr).toBe(0);
      expect(local.stdout).toMatch(/BUG/);
      // The generation time is the push's update time on the server; every event is the same.
      const strip = (s: string) => s.replace(/\(generated [^;]+;/, '').replace(/"generatedAt": "[^"]+"/, '');
      expect(strip(remote.stdout)).toBe(strip(local.stdout));
    }
    const none = await strata(homes.c, ['logbook', 'show', '--project', '/nowhere', '--remote', 'team']);
    expect(none.stderr).toMatch(/^no logbook for this project yet/);
    const other = await strata(homes.c, [
      'logbook',
      'show',
      '--project',
      PROJECT,
      '--remote',
      'team',
      '--machine',
      'x',
    ]);
    expect(other.stderr).toMatch(/^no logbook for this project yet/);
  });

  it('strata mcp --remote serves search, sessions and read through the SDK client', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--remote', 'team'],
      env: { PATH: process.env.PATH ?? '', ...env(homes.c) },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'strata-remote-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getInstructions()).toMatch(/team store "team".*local only/);
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(tools).toEqual(['read', 'search', 'sessions']);
      type Result = { content: { text: string }[]; structuredContent?: any; isError?: boolean };
      const call = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })) as Result;
      const found = await call('search', { query: 'why does my screen saver come up so fast?' });
      expect(found.isError, found.content[0]?.text).toBeFalsy();
      const top = found.structuredContent.sessions[0];
      expect(top.id).toMatch(/^1fb5e404/);
      expect(top.agent).toBe('claude-code@laptop-a');
      expect(found.content[0]!.text).toMatch(/^1fb5e404/);
      const read = await call('read', { session: '1fb5e404', range: '1-3' });
      expect(read.isError, read.content[0]?.text).toBeFalsy();
      const local = await strata(homes.a, ['read', '1fb5e404', '1-3']);
      expect(`${read.content[0]!.text}\n`).toBe(local.stdout);
      expect(read.structuredContent.messages.map((m: { n: number }) => m.n)).toEqual([1, 2, 3]);
      const listed = await call('sessions', { agents: ['codex'], limit: 2 });
      expect(listed.isError, listed.content[0]?.text).toBeFalsy();
      expect(listed.structuredContent.sessions.map((s: { agent: string }) => s.agent)).toEqual(['codex', 'codex']);
      expect(listed.content[0]!.text).toMatch(/@laptop-a/);
      const missingId = await call('read', { session: 'zzzz-no-such' });
      expect(missingId.isError).toBe(true);
      expect(missingId.content[0]!.text).toBe('strata: no session zzzz-no-such on the remote');
      const nothing = await call('search', { query: 'zzqqxxnothing' });
      expect(nothing.content[0]!.text).toBe('no matches');
    } finally {
      await client.close();
    }
  });

  it(
    'strata ui --remote answers search, the session list and a session as locally; ' + 'the rest is local only',
    async () => {
      const local = await startUi(homes.a, []);
      const remote = await startUi(homes.c, ['--remote', 'team']);
      try {
        expect((await remote.get('/api/remote')).body).toEqual({
          remote: 'team',
          localOnly: ['files', 'activity', 'logbook'],
        });
        const session = '/api/session?id=1fb5e404';
        const [a, b] = [await local.get(session), await remote.get(session)];
        expect(b.status).toBe(200);
        // Token usage and the git branch are not pushed: the remote page shows neither (docs/team.md).
        const unpushed = (d: any) => ({
          ...d,
          gitBranch: null,
          tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          messages: d.messages.map((m: object) => ({ ...m, usage: null })),
        });
        expect(b.body.gitBranch).toBeNull();
        expect(b.body.messages.every((m: { usage: unknown }) => m.usage === null)).toBe(true);
        expect(b.body).toEqual(unpushed(a.body));
        // The Session page's paged answers, read from the same copy of the session.
        const windowed = '/api/session-window?id=1fb5e404&m=300';
        const [wa, wb] = [await local.get(windowed), await remote.get(windowed)];
        expect(wb.status).toBe(200);
        const numbers = (r: { body: { page: { messages: { n: number }[] } } }) => r.body.page.messages.map((m) => m.n);
        expect(numbers(wb)).toEqual(numbers(wa));
        expect(numbers(wb)).toContain(300);
        const find = '/api/find?id=1fb5e404&q=hackerman';
        expect((await remote.get(find)).body).toEqual((await local.get(find)).body);
        const search = '/api/search?q=waybar';
        const ids = (r: { body: { sessions: { id: string }[] } }) => r.body.sessions.map((s) => s.id);
        expect(ids(await remote.get(search))).toEqual(ids(await local.get(search)));
        const page = (await remote.get('/api/sessions?agent=codex')).body;
        const localPage = (await local.get('/api/sessions?agent=codex')).body;
        // Sessions started together list in another order (the store contract's documented difference).
        const rowIds = (p: { rows: { id: string }[] }) => p.rows.map((r) => r.id).sort();
        expect(rowIds(page)).toEqual(rowIds(localPage));
        expect(page.totals).toEqual(localPage.totals);
        const files = await remote.get('/api/files?path=src/lib.rs');
        expect(files.status).toBe(501);
        expect(files.body.error).toMatch(/^files is local only/);
        expect((await remote.get('/api/session?id=zzzz-no-such')).status).toBe(404);
      } finally {
        local.stop();
        remote.stop();
      }
    },
  );
});
