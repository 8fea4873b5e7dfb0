// The team store end to end on a throwaway PostgreSQL cluster: two machines push, a third searches both;
// pushes are incremental and survive a kill; the writer role touches only its own rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, runCli, runCliAsync, tempDir } from './support/cli.js';
import { postgresMissing, startCluster, type TestCluster } from './support/postgres.js';

const missing = postgresMissing();
if (missing && process.env.CI) throw new Error(`team store tests need PostgreSQL under CI: ${missing}`);
if (missing) console.warn(`skipping team store tests: ${missing}`);

let cluster: TestCluster;
const homes = { a: tempDir(), b: tempDir(), c: tempDir(), both: tempDir() };
const env = (home: string) => ({ HOME: home, STRATA_HOME: join(home, 'data') });

async function strata(home: string, args: string[]) {
  return runCli(args, env(home));
}

async function psql(sql: string, role = 'postgres') {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: cluster.url(role, 'strata') });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.skipIf(missing !== undefined)('team store on PostgreSQL', () => {
  beforeAll(async () => {
    cluster = await startCluster();
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE strata');
    await admin.end();
    for (const [home, src] of [
      [homes.a, 'claude-code'],
      [homes.b, 'codex'],
    ] as const) {
      expect((await strata(home, ['ingest', join(FIXTURES, src)])).code).toBe(0);
      expect((await strata(homes.both, ['ingest', join(FIXTURES, src)])).code).toBe(0);
    }
    for (const home of Object.values(homes)) {
      const r = await strata(home, ['remote', 'add', 'team', cluster.url('postgres', 'strata')]);
      expect(r.code, r.stderr).toBe(0);
    }
  });
  afterAll(async () => cluster?.stop());

  it('refuses a URL with a password and keeps remotes.json private', async () => {
    const r = await strata(homes.c, ['remote', 'add', 'x', 'postgres://u:secret@127.0.0.1/db']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/pgpass/);
    const file = join(homes.c, 'data', 'remotes.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain('secret');
  });

  it('says what to do before the schema exists, then sets it up', async () => {
    const before = await strata(homes.a, ['push', 'team']);
    expect(before.code).toBe(1);
    expect(before.stderr).toMatch(/remote init team/);
    const init = await strata(homes.a, ['remote', 'init', 'team']);
    expect(init.code, init.stderr).toBe(0);
    const check = await strata(homes.a, ['remote', 'check', 'team', '--json']);
    expect(JSON.parse(check.stdout)).toMatchObject({ schemaVersion: 1, sessions: 0 });
  });

  it('two machines push, a re-push sends nothing, counts are the sum, nothing doubled after a kill', async () => {
    // A push killed at once, then run again: exactly one copy of every row.
    await runCliAsync(['push', 'team', '--machine', 'laptop-a'], env(homes.a), (child) => {
      setTimeout(() => child.kill('SIGKILL'), 150);
    });
    const a = JSON.parse((await strata(homes.a, ['push', '--machine', 'laptop-a', '--json'])).stdout);
    const b = JSON.parse((await strata(homes.b, ['push', 'team', '--machine', 'laptop-b', '--json'])).stdout);
    expect(b.sessionsPushed).toBe(b.sessions);
    const again = JSON.parse((await strata(homes.a, ['push', '--machine', 'laptop-a', '--json'])).stdout);
    expect(again).toMatchObject({ sessionsPushed: 0, sessionsUnchanged: a.sessions - a.sessionsExcluded });
    const local = JSON.parse((await strata(homes.both, ['stats', '--json'])).stdout);
    const server = (
      await psql(
        `SELECT (SELECT count(*) FROM strata.sessions)::int AS s, (SELECT count(*) FROM strata.messages)::int AS m`,
      )
    ).rows[0];
    expect(server.s).toBe(a.sessions + b.sessions);
    expect(server.m).toBe(local.messages);
  });

  it('a third machine searches both with the answers of a local store holding both', async () => {
    for (const word of ['bug', 'test']) {
      const remote = await strata(homes.c, ['search', word, '--remote', 'team', '-l', '--limit', '100']);
      const local = await strata(homes.both, ['search', word, '-l']);
      expect(remote.code, remote.stderr).toBe(0);
      expect(new Set(remote.stdout.trim().split('\n'))).toEqual(new Set(local.stdout.trim().split('\n')));
    }
    // A question in plain words: stop words and common words do not drown its rare ones.
    await psql('ANALYZE strata.blocks');
    const question = await strata(homes.c, ['search', 'why does my screen saver come up so fast?', '--remote', 'team']);
    expect(question.stdout.split('\n')[0]).toMatch(/^1fb5e404 /);
    // --project follows the local rule (whole segments, ~/x under the session's own home).
    for (const project of ['Claude', '~/Claude']) {
      const remote = await strata(homes.c, ['search', 'test', '--remote', 'team', '--project', project, '-l']);
      const local = await strata(homes.both, ['search', 'test', '--project', project, '-l']);
      expect(remote.stdout.trim().split('\n').sort()).toEqual(local.stdout.trim().split('\n').sort());
    }
    const hits = await strata(homes.c, ['search', 'test', '--remote', 'team', '--machine', 'laptop-b']);
    expect(hits.stdout).toMatch(/codex@laptop-b/);
    expect(hits.stdout).not.toMatch(/@laptop-a/);
    const none = await strata(homes.c, ['search', 'zzqqxxnothing', '--remote', 'team']);
    expect(none.code).toBe(1);
  });

  it('reads a session and lists sessions from the server as the local store does', async () => {
    const local = (await strata(homes.both, ['index', '--json'])) as { stdout: string };
    const entries = JSON.parse(local.stdout) as { id: string; messages: number; linesAdded: number }[];
    const remote = JSON.parse((await strata(homes.c, ['index', '--remote', 'team', '--json'])).stdout) as {
      id: string;
      messages: number;
      linesAdded: number;
      machine: string;
    }[];
    expect(remote.map((e) => e.id).sort()).toEqual(entries.map((e) => e.id).sort());
    for (const e of entries) {
      const r = remote.find((x) => x.id === e.id)!;
      expect([r.messages, r.linesAdded]).toEqual([e.messages, e.linesAdded]);
    }
    const text = await strata(homes.c, ['index', '--remote', 'team', '--machine', 'laptop-b']);
    expect(text.stdout.split('\n')[0]).toMatch(/^ID\s+DATE\s+AGENT\s+MACHINE/);
    expect(text.stdout).not.toMatch(/@laptop-a/);
    // The busiest session read whole: the same text as a local read.
    const busiest = [...entries].sort((a, b) => b.messages - a.messages)[0]!;
    for (const args of [[busiest.id], [busiest.id, '2-6', '--full']]) {
      const fromServer = await strata(homes.c, ['read', ...args, '--remote', 'team']);
      const fromLocal = await strata(homes.both, ['read', ...args]);
      expect(fromServer.code, fromServer.stderr).toBe(0);
      expect(fromServer.stdout).toBe(fromLocal.stdout);
    }
    const missing = await strata(homes.c, ['read', 'zzzz-no-such', '--remote', 'team']);
    expect(missing.code).toBe(2);
  });

  it('ingest --push and hook ingest --push; a project with .strata-no-push never leaves the machine', async () => {
    const home = tempDir();
    const secret = join(home, 'secret-project');
    const transcripts = join(home, 'transcripts');
    mkdirSync(secret, { recursive: true });
    mkdirSync(transcripts, { recursive: true });
    writeFileSync(join(secret, '.strata-no-push'), '');
    const line = (uuid: string, cwd: string, text: string) =>
      JSON.stringify({
        type: 'user',
        uuid,
        sessionId: `s-${uuid}`,
        cwd,
        timestamp: '2026-05-01T00:00:00.000Z',
        message: { role: 'user', content: text },
      });
    writeFileSync(join(transcripts, 'a.jsonl'), `${line('private1', secret, 'quuxprivateword')}\n`);
    writeFileSync(join(transcripts, 'b.jsonl'), `${line('public1', home, 'quuxpublicword 执行数据库迁移')}\n`);
    await strata(home, ['remote', 'add', 'team', cluster.url('postgres', 'strata')]);
    const e = { ...env(home), STRATA_MACHINE: 'laptop-d' };
    const r = await runCli(['ingest', transcripts, '--push'], e);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/pushed 1 sessions .* as laptop-d; 0 unchanged, 1 excluded/);
    expect((await strata(homes.c, ['search', 'quuxpublicword', '--remote', 'team'])).code).toBe(0);
    expect((await strata(homes.c, ['search', 'quuxprivateword', '--remote', 'team'])).code).toBe(1);
    const cjk = await strata(homes.c, ['search', '数据库', '--remote', 'team']);
    expect(cjk.stdout).toMatch(/^s-public.*claude-code@laptop-d.*\n.*数据库/);
    const hook = await runCli(['hook', 'ingest', '--push', 'nosuch'], e, { input: '{}' });
    expect(hook.code).toBe(0);
    expect(hook.stderr).toMatch(/push after the hook failed: no remote named nosuch/);
  });

  it('a writer role changes only its own rows; a reader only reads', async () => {
    await psql('CREATE ROLE mallory LOGIN IN ROLE strata_writer; CREATE ROLE bob LOGIN IN ROLE strata_reader');
    const updated = await psql("UPDATE strata.blocks SET text = 'x' WHERE machine = 'laptop-a'", 'mallory');
    expect(updated.rowCount).toBe(0);
    const home = tempDir();
    await strata(home, ['ingest', join(FIXTURES, 'claude-code')]);
    await strata(home, ['remote', 'add', 'team', cluster.url('mallory', 'strata')]);
    const spoof = await strata(home, ['push', '--machine', 'laptop-a']);
    expect(spoof.code).toBe(1);
    expect(spoof.stderr).toMatch(/pushed by role postgres, not mallory/);
    const own = await strata(home, ['push', '--machine', 'mallory-box', '--json']);
    expect(own.code, own.stderr).toBe(0);
    // The database itself refuses it too, even for a role that owns a machine.
    await expect(
      psql("INSERT INTO strata.logbooks VALUES ('laptop-a', 'u', 'mallory', 'w', 'k', '{}', 0, 't')", 'mallory'),
    ).rejects.toThrow(/row-level security/);
    await expect(psql("INSERT INTO strata.logbooks VALUES ('m','u','bob','w','k','{}',0,'t')", 'bob')).rejects.toThrow(
      /permission denied/,
    );
  });
});
