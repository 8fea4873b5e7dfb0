// End-to-end: `strata doctor` on a home with Codex and Gemini CLI installed, before and after setup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';

let base: string;
let env: Record<string, string>;
const project = () => join(base, 'work', 'app');
const strata = async (...args: string[]) => await runCli(args, env, { cwd: project() });

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'strata-doctor-'));
  mkdirSync(join(base, 'home', '.codex'), { recursive: true });
  mkdirSync(join(base, 'home', '.gemini'), { recursive: true });
  mkdirSync(project(), { recursive: true });
  env = { HOME: join(base, 'home'), STRATA_HOME: join(base, 'data'), PATH: process.env.PATH ?? '' };
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

interface Check {
  name: string;
  ok: boolean;
  fix?: string;
}
const checks = (stdout: string, client: string): Record<string, Check> => {
  const report = JSON.parse(stdout) as { clients: { client: string; checks: Check[] }[] };
  return Object.fromEntries(report.clients.find((c) => c.client === client)!.checks.map((c) => [c.name, c]));
};

describe('strata doctor', () => {
  it('says what to do for each missing piece, and reports a healthy setup once done', async () => {
    const before = await strata('doctor');
    expect(before.code).toBe(0);
    expect(before.stdout).toContain('FIX  mcp    no strata server in ~/.codex/config.toml');
    expect(before.stdout).toContain('→ strata hook install --client gemini');
    expect(before.stdout).not.toContain('claude-code');
    const codex = checks((await strata('doctor', '--json')).stdout, 'codex');
    expect(codex.store).toMatchObject({ ok: false });
    expect(codex.trust!.fix).toMatch(/start codex once in this folder/);

    // A Codex entry written without STRATA_HOME: the server would open another store.
    writeFileSync(join(base, 'home', '.codex', 'config.toml'), '[mcp_servers.strata]\ncommand = "strata"\n');
    expect(checks((await strata('doctor', '--json')).stdout, 'codex').store).toMatchObject({ ok: false });

    for (const client of ['codex', 'gemini']) {
      expect((await strata('mcp', 'config', '--client', client, '--write')).code).toBe(0);
      expect((await strata('hook', 'install', '--client', client)).code).toBe(0);
    }
    appendFileSync(
      join(base, 'home', '.codex', 'config.toml'),
      `\n[projects."${project()}"]\ntrust_level = "trusted"\n`,
    );
    writeFileSync(
      join(base, 'home', '.gemini', 'trustedFolders.json'),
      JSON.stringify({ [project()]: 'TRUST_FOLDER' }),
    );
    const bin = join(base, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'strata'), '#!/bin/sh\n');
    chmodSync(join(bin, 'strata'), 0o755);
    env.PATH = `${bin}:${env.PATH}`;
    const after = JSON.parse((await strata('doctor', '--json')).stdout) as {
      command: string;
      clients: { checks: Check[] }[];
    };
    expect(after.command).toBe(join(bin, 'strata'));
    expect(after.clients.flatMap((c) => c.checks).filter((c) => !c.ok)).toEqual([]);
  });
});
