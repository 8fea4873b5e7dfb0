// End-to-end: `strata mcp config --write` and `strata hook install` on the configuration files users
// really have: private modes, dotfile symlinks, numbers JSON.parse cannot keep, their own hooks, a
// customised Codex table, and paths that are folders, FIFOs or dangling links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { REPO, runCli } from './support/cli.js';

let base: string;
let home: string;

// Through the installed command (the bundle), as users run it: the JSON editor must be bundled whole.
const strata = async (args: string[]) =>
  await runCli(
    args,
    { HOME: home, STRATA_HOME: join(base, 'data'), CODEX_HOME: join(home, '.codex') },
    { timeout: 20_000, entry: join(REPO, 'bin', 'strata.cjs') },
  );

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'strata-config-hostile-'));
  home = join(base, 'home');
  for (const d of ['.gemini', '.claude', '.codex', 'dotfiles']) mkdirSync(join(home, d), { recursive: true });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('configuration files edited in place', () => {
  it('a 0600 Gemini settings.json keeps its mode and every byte outside the strata entries', async () => {
    const path = join(home, '.gemini', 'settings.json');
    const text = '{\n  // key\n  "apiKey": "k",\n  "n": 12345678901234567890,\n  "x": 1e400,\n  "d": 1,\n  "d": 2\n}\n';
    writeFileSync(path, text, { mode: 0o600 });
    chmodSync(path, 0o600);
    expect((await strata(['mcp', 'config', '--client', 'gemini', '--write'])).code).toBe(0);
    const r = await strata(['hook', 'install', '--client', 'gemini']);
    expect(r.code, r.stderr).toBe(0);
    const after = readFileSync(path, 'utf8');
    expect(after.startsWith(text.slice(0, text.lastIndexOf('\n}')))).toBe(true);
    expect(after).toContain('"command": "strata hook ingest --client gemini"');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it(
    'a symlinked ~/.claude/settings.json gets the hooks ' + 'in its target; a user hook chained to strata stays',
    async () => {
      const target = join(home, 'dotfiles', 'claude-settings.json');
      const user = 'strata hook ingest --client claude-code && ~/bin/backup.sh';
      writeFileSync(
        target,
        JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: user }] }] } }),
      );
      const link = join(home, '.claude', 'settings.json');
      symlinkSync(target, link);
      const r = await strata(['hook', 'install', '--client', 'claude-code']);
      expect(r.code, r.stderr).toBe(0);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      const commands = JSON.parse(readFileSync(target, 'utf8')).hooks.SessionEnd.flatMap((g: any) =>
        g.hooks.map((h: any) => h.command),
      );
      expect(commands).toEqual([user, 'strata hook ingest --client claude-code']);
    },
  );

  it('a customised Codex [mcp_servers.strata] keeps its env and comment', async () => {
    const path = join(home, '.codex', 'config.toml');
    writeFileSync(path, '[mcp_servers.strata]\n# pinned\ncommand = "/opt/strata"\nargs = ["mcp"]\nenv = { A = "1" }\n');
    chmodSync(path, 0o600);
    expect((await strata(['mcp', 'config', '--client', 'codex', '--write'])).code).toBe(0);
    const after = readFileSync(path, 'utf8');
    // The user's variable and comment stay; the store's variable is added (Codex filters the environment).
    expect(after).toBe(
      '[mcp_servers.strata]\n# pinned\ncommand = "strata"\nargs = ["mcp"]\n' +
        `env = { A = "1", STRATA_HOME = ${JSON.stringify(join(base, 'data'))} }\n`,
    );
    expect((parseToml(after) as any).mcp_servers.strata.env).toEqual({ A: '1', STRATA_HOME: join(base, 'data') });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a read-only file, a dangling link, a FIFO and a folder in one line each, without hanging', async () => {
    const readOnly = join(base, 'ro.json');
    writeFileSync(readOnly, '{}\n');
    chmodSync(readOnly, 0o444);
    const dangling = join(base, 'dangling.json');
    symlinkSync(join(base, 'nowhere.json'), dangling);
    const fifo = join(base, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    const folder = join(base, 'folder.json');
    mkdirSync(folder);
    const cases: [string, RegExp][] = [
      [readOnly, /is read-only \(mode 0444\)/],
      [dangling, /is a symbolic link to .*nowhere.json, which does not exist/],
      [fifo, /is not a regular file \(FIFO\)/],
      [folder, /is a folder, not a file/],
    ];
    for (const [path, message] of cases) {
      for (const args of [
        ['mcp', 'config', '--client', 'cursor', '--write', '--path', path],
        ['hook', 'install', '--client', 'cursor', '--path', path],
      ]) {
        const r = await strata(args);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
        expect(r.stderr).toMatch(message);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
      }
    }
    expect(readFileSync(readOnly, 'utf8')).toBe('{}\n');
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
  });
});
