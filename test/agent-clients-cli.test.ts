// End-to-end: `strata mcp config`, `strata hook install` and `strata hook ingest|context` for each client,
// run by the built CLI in a temp HOME; recorded payloads from test/hook-payloads/, results read back with
// real JSON and TOML parsers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { FIXTURES, runCli } from './support/cli.js';

const ROOT = process.cwd();
const CLIENTS = ['claude-code', 'codex', 'gemini', 'cursor', 'opencode'] as const;

let base: string;
let home: string;

async function strata(args: string[], stdin = '', cwd = base) {
  const env = { HOME: home, STRATA_HOME: join(base, 'data'), XDG_DATA_HOME: join(base, 'xdg-data') };
  return await runCli(args, env, { input: stdin, cwd });
}

function payload(name: string, transcript: string | null, cwd: string): string {
  const text = readFileSync(join(ROOT, 'test/hook-payloads', `${name}.json`), 'utf8');
  return text.replaceAll('"$TRANSCRIPT"', JSON.stringify(transcript)).replaceAll('$CWD', cwd);
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'strata-clients-e2e-'));
  home = join(base, 'home');
  mkdirSync(home, { recursive: true });
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('strata mcp config', () => {
  it.each(CLIENTS)('%s: prints a snippet that parses to the strata server', async (client) => {
    const r = await strata(['mcp', 'config', '--client', client]);
    expect(r.code, r.stderr).toBe(0);
    const doc = client === 'codex' ? (parseToml(r.stdout) as any) : JSON.parse(r.stdout);
    const server =
      client === 'codex' ? doc.mcp_servers.strata : client === 'opencode' ? doc.mcp.strata : doc.mcpServers.strata;
    expect(JSON.stringify(server)).toContain('"mcp"');
  });

  it.each(CLIENTS)(
    '%s: --write merges into the client file once, keeping a backup of what it changed',
    async (client) => {
      const first = await strata(['mcp', 'config', '--client', client, '--write'], '', join(base));
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/^strata: created /);
      const again = await strata(['mcp', 'config', '--client', client, '--write']);
      expect(again.stderr).toMatch(/already has the strata server/);
    },
  );

  it('merges into an existing Codex config.toml and a Cursor mcp.json, with backups', async () => {
    const codex = join(home, '.codex', 'config.toml');
    writeFileSync(codex, '# mine\nmodel = "o3"\n');
    expect((await strata(['mcp', 'config', '--client', 'codex', '--write'])).stderr).toMatch(
      /updated .*config\.toml \(previous file kept as .*config\.toml\.strata-backup-/,
    );
    const doc = parseToml(readFileSync(codex, 'utf8')) as any;
    // Codex filters its MCP servers' environment: the store's variables are passed on.
    const storeEnv = { STRATA_HOME: join(base, 'data'), XDG_DATA_HOME: join(base, 'xdg-data') };
    expect(doc).toEqual({ model: 'o3', mcp_servers: { strata: { command: 'strata', args: ['mcp'], env: storeEnv } } });
    expect(readdirSync(join(home, '.codex')).filter((f) => f.startsWith('config.toml.strata-backup-'))).toHaveLength(1);
  });

  it('refuses a file it cannot parse and leaves it as it was', async () => {
    const cursor = join(home, '.cursor', 'mcp.json');
    writeFileSync(cursor, '{ "mcpServers": {');
    const r = await strata(['mcp', 'config', '--client', 'cursor', '--write']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^strata: cannot parse .*mcp\.json as JSON .*left it unchanged\n$/);
    expect(readFileSync(cursor, 'utf8')).toBe('{ "mcpServers": {');
  });

  it('rejects an unknown client as a usage error', async () => {
    expect((await strata(['mcp', 'config', '--client', 'vim'])).code).toBe(2);
  });
});

describe('strata hook install', () => {
  it.each([
    ['codex', '.codex/hooks.json', 'Stop'],
    ['gemini', '.gemini/settings.json', 'PreCompress'],
    ['cursor', '.cursor/hooks.json', 'sessionEnd'],
    ['claude-code', '.claude/settings.json', 'SessionEnd'],
  ] as const)(
    '%s: registers the hooks in %s (and a second install changes nothing)',
    async (client, file, ingestEvent) => {
      const r = await strata(['hook', 'install', '--client', client]);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(readFileSync(join(home, file), 'utf8'));
      expect(JSON.stringify(doc.hooks[ingestEvent])).toContain(`strata hook ingest --client ${client}`);
      expect((await strata(['hook', 'install', '--client', client])).stderr).toMatch(/already runs the strata hooks/);
    },
  );

  it('gemini: keeps the MCP server written to the same settings.json', () => {
    const doc = JSON.parse(readFileSync(join(home, '.gemini/settings.json'), 'utf8'));
    expect(doc.mcpServers.strata).toEqual({ command: 'strata', args: ['mcp'] });
    expect(doc.hooks.SessionStart[0].hooks[0]).toMatchObject({
      type: 'command',
      command: 'strata hook context --client gemini',
      timeout: 10000,
    });
  });

  it('says what the client still needs: approval, trust, environment', async () => {
    const codex = await strata(['hook', 'install', '--client', 'codex', '--path', join(base, 'notes-hooks.json')]);
    expect(codex.stderr).toMatch(/\nstrata: next: Codex runs only hooks you have trusted, and `codex exec` skips/);
    const gemini = await strata(['mcp', 'config', '--client', 'gemini', '--write', '--path', join(base, 'notes.json')]);
    expect(gemini.stderr).toMatch(/\nstrata: next: Gemini CLI starts MCP servers only in a trusted folder/);
    const claude = await strata([
      'mcp',
      'config',
      '--client',
      'claude-code',
      '--write',
      '--path',
      join(base, 'mcp.json'),
    ]);
    expect(claude.stderr).toMatch(/\nstrata: next: Claude Code asks to approve a project .mcp.json server/);
  });

  it('opencode: writes a plugin file that is valid JavaScript', async () => {
    expect((await strata(['hook', 'install', '--client', 'opencode'])).code).toBe(0);
    const plugin = join(home, '.config/opencode/plugins/strata.js');
    const check = spawnSync(process.execPath, ['--check', plugin], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
  });
});

describe("strata hook with each client's payload", () => {
  it('claude-code and cursor: ingest at session end, context at session start', async () => {
    const transcript = join(base, 'claude', '1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl');
    mkdirSync(join(base, 'claude'), { recursive: true });
    copyFileSync(
      join(
        FIXTURES,
        'claude-code/omarchy-backup/projects/-home-vwestberg-Claude/1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl',
      ),
      transcript,
    );
    expect(
      await strata(['hook', 'ingest'], payload('claude-code-session-end', transcript, '/home/vwestberg/Claude')),
    ).toEqual({ code: 0, stdout: '', stderr: '' });
    const claude = JSON.parse(
      (await strata(['hook', 'context'], payload('claude-code-session-start', transcript, '/home/vwestberg/Claude')))
        .stdout,
    );
    expect(claude.hookSpecificOutput.additionalContext).toContain('1fb5e404');
    // Cursor's sessionEnd carries no transcript strata can read: nothing to do, quietly.
    expect(
      await strata(
        ['hook', 'ingest', '--client', 'cursor'],
        payload('cursor-session-end', null, '/home/vwestberg/Claude'),
      ),
    ).toEqual({ code: 0, stdout: '', stderr: '' });
    const cursor = JSON.parse(
      (
        await strata(
          ['hook', 'context', '--client', 'cursor'],
          payload('cursor-session-start', null, '/home/vwestberg/Claude'),
        )
      ).stdout,
    );
    expect(Object.keys(cursor)).toEqual(['additional_context']);
    expect(cursor.additional_context).toContain('1fb5e404');
  });

  it(
    'codex: Stop ingests the rollout, SessionStart (transcript_path ' + 'null) answers with hookSpecificOutput',
    async () => {
      const rollout = join(base, 'codex', 'rollout-2025-11-28T03-40-25-019ac88c-3f80-7990-a29a-d20399dcab74.jsonl');
      mkdirSync(join(base, 'codex'), { recursive: true });
      copyFileSync(
        join(
          FIXTURES,
          'codex/auto-quantize-model/sessions/2025/11/28',
          'rollout-2025-11-28T03-40-25-019ac88c-3f80-7990-a29a-d20399dcab74.jsonl',
        ),
        rollout,
      );
      const project = '/data2/huangzhe/code/auto-quantize-model';
      expect(await strata(['hook', 'ingest', '--client', 'codex'], payload('codex-stop', rollout, project))).toEqual({
        code: 0,
        stdout: '',
        stderr: '',
      });
      const out = JSON.parse(
        (await strata(['hook', 'context', '--client', 'codex'], payload('codex-session-start', null, project))).stdout,
      );
      expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
      expect(out.hookSpecificOutput.additionalContext).toContain('019ac88c');
    },
  );

  it('gemini: SessionEnd ingests the chat file it names', async () => {
    const chat = join(base, 'gemini', 'tmp', 'ticketing-vc', 'chats', 'session-2026-04-25T08-41-3494a697.jsonl');
    mkdirSync(join(base, 'gemini', 'tmp', 'ticketing-vc', 'chats'), { recursive: true });
    copyFileSync(
      join(FIXTURES, 'gemini/vibe-coding-comparison/tmp/ticketing-vc/chats/session-2026-04-25T08-41-3494a697.jsonl'),
      chat,
    );
    expect(await strata(['hook', 'ingest', '--client', 'gemini'], payload('gemini-session-end', chat, base))).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect((await strata(['search', 'postgres', '--agent', 'gemini', '-l'])).stdout).toContain('3494a697');
    const start = await strata(
      ['hook', 'context', '--client', 'gemini'],
      payload('gemini-session-start', chat, '/nowhere/known'),
    );
    expect(start).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it("opencode: the plugin's payloads ingest the OpenCode store quietly and answer context as JSON", async () => {
    expect(
      await strata(
        ['hook', 'ingest', '--client', 'opencode'],
        payload('opencode-session-idle', null, '/home/vwestberg/Claude'),
      ),
    ).toEqual({ code: 0, stdout: '', stderr: '' });
    const out = JSON.parse(
      (
        await strata(
          ['hook', 'context', '--client', 'opencode'],
          payload('opencode-session-created', null, '/home/vwestberg/Claude'),
        )
      ).stdout,
    );
    expect(out.additionalContext).toContain('1fb5e404');
    expect(existsSync(join(base, 'data', 'hooks.log'))).toBe(false);
  });
});
