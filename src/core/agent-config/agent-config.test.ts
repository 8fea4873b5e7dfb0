import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { AGENT_CLIENTS, type AgentClient } from './clients.js';
import { mcpConfigSnippet, mergeMcpConfig } from './mcp-config.js';
import { mergeHookConfig } from './hook-config.js';
import { writeConfigFile } from './config-file.js';

const parse = (client: AgentClient, text: string): any => (client === 'codex' ? parseToml(text) : JSON.parse(text));
const serverOf = (client: AgentClient, doc: any) =>
  client === 'codex' ? doc.mcp_servers.strata : client === 'opencode' ? doc.mcp.strata : doc.mcpServers.strata;

describe('MCP config snippets and merges', () => {
  it.each(AGENT_CLIENTS)('%s: the snippet parses to the strata server that runs `strata mcp`', (client) => {
    const server = serverOf(client, parse(client, mcpConfigSnippet(client)));
    if (client === 'opencode') expect(server).toEqual({ type: 'local', command: ['strata', 'mcp'], enabled: true });
    else expect(server).toEqual({ command: 'strata', args: ['mcp'] });
  });

  it.each(AGENT_CLIENTS)('%s: merging keeps other settings and is idempotent', (client) => {
    const existing =
      client === 'codex'
        ? '# my settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "other"\n'
        : client === 'opencode'
          ? JSON.stringify({ theme: 'dark', mcp: { other: { type: 'local', command: ['other'] } } }, null, 4) + '\n'
          : JSON.stringify({ theme: 'dark', mcpServers: { other: { command: 'other' } } }, null, 4) + '\n';
    const once = mergeMcpConfig(client, existing, 'cfg');
    const doc = parse(client, once);
    expect(serverOf(client, doc)).toBeTruthy();
    if (client === 'codex') {
      expect(once.startsWith('# my settings\nmodel = "o3"\n')).toBe(true);
      expect(doc.mcp_servers.other).toEqual({ command: 'other' });
    } else {
      expect(doc.theme).toBe('dark');
      expect(once).toContain('\n    "theme"');
    }
    expect(mergeMcpConfig(client, once, 'cfg')).toBe(once);
  });

  it('codex: a different strata table is replaced in place, comments and later tables kept', () => {
    const before =
      '# top\n[mcp_servers.strata]\ncommand = "/old/strata"\nargs = ["serve"]\n\n# tail\n[profiles.x]\nmodel = "m"\n';
    const after = mergeMcpConfig('codex', before, 'config.toml');
    const doc = parseToml(after) as any;
    expect(doc.mcp_servers.strata).toEqual({ command: 'strata', args: ['mcp'] });
    expect(doc.profiles.x.model).toBe('m');
    expect(after).toContain('# top\n');
    expect(after).toContain('# tail\n');
  });

  it('codex: passes on the variables that choose the store, which Codex would filter out', () => {
    const env = { STRATA_HOME: '/data/strata "x"', XDG_DATA_HOME: '/xdg', HOME: '/home/u' };
    const snippet = mcpConfigSnippet('codex', env);
    expect((parseToml(snippet) as any).mcp_servers.strata.env).toEqual({
      STRATA_HOME: '/data/strata "x"',
      XDG_DATA_HOME: '/xdg',
    });
    const before = '[mcp_servers.strata]\ncommand = "strata"\nargs = ["mcp"]\n';
    const after = mergeMcpConfig('codex', before, 'config.toml', { STRATA_HOME: '/s' });
    expect((parseToml(after) as any).mcp_servers.strata).toEqual({
      command: 'strata',
      args: ['mcp'],
      env: { STRATA_HOME: '/s' },
    });
    expect(after.endsWith('\n')).toBe(true);
    expect(mergeMcpConfig('codex', after, 'config.toml', { STRATA_HOME: '/s' })).toBe(after);
    expect(mcpConfigSnippet('codex', {})).not.toContain('env');
  });

  it('refuses files it cannot parse', () => {
    expect(() => mergeMcpConfig('codex', 'model = = "x"\n', 'config.toml')).toThrow(/cannot parse config.toml as TOML/);
    expect(() => mergeMcpConfig('cursor', '{ "mcpServers": ', 'mcp.json')).toThrow(/cannot parse mcp.json as JSON/);
    expect(() => mergeMcpConfig('gemini', '[1]', 'settings.json')).toThrow(/is not a JSON object/);
    expect(() => mergeMcpConfig('gemini', '{"mcpServers": []}', 'settings.json')).toThrow(
      /"mcpServers" in settings.json is not an object/,
    );
  });
});

describe('hook configuration', () => {
  const commandsOf = (client: AgentClient, doc: any, event: string): string[] =>
    client === 'cursor'
      ? doc.hooks[event].map((e: any) => e.command)
      : doc.hooks[event].flatMap((g: any) => g.hooks.map((h: any) => h.command));

  it.each([
    ['codex', 'SessionStart', 'Stop', 'PreCompact'],
    ['gemini', 'SessionStart', 'SessionEnd', 'PreCompress'],
    ['cursor', 'sessionStart', 'sessionEnd', 'preCompact'],
    ['claude-code', 'SessionStart', 'SessionEnd', 'PreCompact'],
  ] as const)(
    '%s: registers context at %s and ingest at %s and %s, keeping other hooks',
    (client, start, end, compact) => {
      const other =
        client === 'cursor'
          ? { command: 'notify-send done' }
          : { hooks: [{ type: 'command', command: 'notify-send done' }] };
      const existing = JSON.stringify({ keep: true, hooks: { [start]: [other] } }, null, 2) + '\n';
      const once = mergeHookConfig(client, existing, 'hooks.json');
      const doc = JSON.parse(once);
      expect(doc.keep).toBe(true);
      expect(commandsOf(client, doc, start)).toEqual(['notify-send done', `strata hook context --client ${client}`]);
      expect(commandsOf(client, doc, end)).toEqual([`strata hook ingest --client ${client}`]);
      expect(commandsOf(client, doc, compact)).toEqual([`strata hook ingest --client ${client}`]);
      if (client === 'cursor') expect(doc.version).toBe(1);
      expect(mergeHookConfig(client, once, 'hooks.json')).toBe(once);
    },
  );

  it('replaces an older strata entry instead of adding a second one', () => {
    const old = JSON.stringify({
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'strata hook ingest' },
              { type: 'command', command: 'say hi' },
            ],
          },
        ],
      },
    });
    const doc = JSON.parse(mergeHookConfig('codex', old, 'hooks.json'));
    expect(doc.hooks.Stop).toEqual([
      { hooks: [{ type: 'command', command: 'say hi' }] },
      { hooks: [{ type: 'command', command: 'strata hook ingest --client codex', timeout: 30 }] },
    ]);
  });

  it('writes the OpenCode plugin, which runs both hooks', () => {
    const plugin = mergeHookConfig('opencode', undefined, 'strata.js');
    expect(plugin).toContain("run(['ingest', '--client', 'opencode']");
    expect(plugin).toContain("run(['context', '--client', 'opencode']");
    expect(mergeHookConfig('opencode', plugin, 'strata.js')).toBe(plugin);
  });
});

describe('writeConfigFile', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'strata-config-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates, leaves unchanged, and backs up before an update', () => {
    const path = join(dir, 'sub', 'mcp.json');
    expect(writeConfigFile(path, () => '{"a":1}\n').status).toBe('created');
    expect(writeConfigFile(path, (c) => c!).status).toBe('unchanged');
    const updated = writeConfigFile(path, () => '{"a":2}\n', new Date('2026-11-24T12:00:00Z'));
    expect(updated.status).toBe('updated');
    expect(updated.backup).toBe(`${path}.strata-backup-2026-11-24T12-00-00-000Z`);
    expect(readFileSync(updated.backup!, 'utf8')).toBe('{"a":1}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"a":2}\n');
  });

  it('writes nothing when the merge refuses the file', () => {
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{ broken');
    expect(() => writeConfigFile(path, (c) => mergeMcpConfig('gemini', c, path))).toThrow(/cannot parse/);
    expect(readFileSync(path, 'utf8')).toBe('{ broken');
    expect(readdirSync(dir)).toEqual(['settings.json']);
    expect(existsSync(path + '.tmp')).toBe(false);
  });
});
