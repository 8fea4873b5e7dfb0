// End-to-end: a store holding a secret that the rules of its time missed (simulated by an ingest with
// --no-redact) loses it on the next `strata ingest`, which says so; `strata redact` reports and is
// idempotent; search no longer finds the secret's value.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './support/cli.js';

const SECRET = ['ghp', '1234567890abcdefghijklmnopqrstuvwxyzAB'].join('_');

describe('strata redact and the ingest after a rules change', () => {
  it('scans the stored texts again and redacts what the rules now find', async () => {
    const home = tempDir('strata-redact-');
    const project = join(home, 'p');
    mkdirSync(project);
    const entry = {
      type: 'user',
      uuid: 'u1',
      sessionId: 'redact-session',
      timestamp: '2026-01-01T00:00:00Z',
      cwd: '/tmp/proj',
      message: { role: 'user', content: `please deploy with token ${SECRET} now` },
    };
    writeFileSync(join(project, 'redact-session.jsonl'), JSON.stringify(entry) + '\n');
    const env = { HOME: home, STRATA_HOME: join(home, 'strata') };
    expect((await runCli(['ingest', '--no-redact', project], env)).code).toBe(0);
    expect((await runCli(['search', SECRET], env)).stdout).toContain(SECRET);
    // As if the texts had been stored by an older strata whose rules missed this secret.
    const db = new Database(join(home, 'strata', 'strata.db'));
    db.prepare("UPDATE redaction_state SET rules = 'rules-1'").run();
    db.close();

    const dry = await runCli(['redact', '--dry-run', '--json'], env);
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned.dryRun).toBe(true);
    // The message's block and its session's first prompt at least (the listing's title once built).
    expect(planned.byKind['github-token']).toBeGreaterThanOrEqual(2);

    const ingest = await runCli(['ingest', project], env);
    expect(ingest.code).toBe(0);
    expect(ingest.stderr).toContain('the secret rules changed; scanning 1 stored blocks again');
    expect(ingest.stderr).toMatch(/redacted [23] secrets in [23] rows \(github-token [23]\)/);
    const search = await runCli(['search', 'deploy', 'token'], env);
    expect(search.stdout).toContain('please deploy with token [REDACTED:github-token] now');
    expect(search.stdout).not.toContain(SECRET);
    expect((await runCli(['search', SECRET], env)).code).toBe(1);

    const again = await runCli(['redact', '--json'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ secrets: 0, blocksScanned: 1 });
    const usage = await runCli(['redact', '--bogus'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe("strata: unknown option '--bogus' (see --help)\n");
  });
});
