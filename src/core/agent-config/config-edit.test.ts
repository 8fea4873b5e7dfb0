import { describe, expect, it } from 'vitest';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { mergeHookConfig } from './hook-config.js';
import { mergeMcpConfig } from './mcp-config.js';
import { setTomlTableKeys } from './toml-table-edit.js';

const USER_JSON = `{
    // my Gemini settings
    "apiKey": "k",
    "big": 12345678901234567890,
    "huge": 1e400,
    "dup": 1,
    "dup": 2,
    "mcpServers": {
        "other": { "command": "other" } /* kept */
    }
}
`;

describe('JSON edits touch only strata entries', () => {
  it('keeps big integers, 1e400, duplicate keys, comments and indentation outside the entry', () => {
    const after = mergeMcpConfig('gemini', USER_JSON, 'settings.json');
    const untouched = USER_JSON.slice(0, USER_JSON.indexOf(' /* kept */'));
    expect(after.startsWith(untouched)).toBe(true);
    expect(parseJsonc(after).mcpServers.strata).toEqual({ command: 'strata', args: ['mcp'] });
    // The comment ending the last entry's line stays with it; strata's entry goes on the next line.
    expect(after).toContain('"other": { "command": "other" }, /* kept */\n        "strata": {\n            "command"');
    expect(mergeMcpConfig('gemini', after, 'settings.json')).toBe(after);
  });

  it('hook install keeps the same content and adds only the hooks', () => {
    const after = mergeHookConfig('gemini', USER_JSON, 'settings.json');
    for (const kept of ['12345678901234567890', '1e400', '"dup": 1,\n    "dup": 2,', '// my Gemini settings'])
      expect(after).toContain(kept);
    expect(parseJsonc(after).hooks.SessionEnd[0].hooks[0].command).toBe('strata hook ingest --client gemini');
  });

  it('never removes a hook command strata did not write', () => {
    const user = 'strata hook ingest --client claude-code && ~/bin/backup.sh';
    const text = JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: user }] }] } }, null, 2);
    const doc = JSON.parse(mergeHookConfig('claude-code', text, 'settings.json'));
    expect(doc.hooks.SessionEnd.flatMap((g: any) => g.hooks.map((h: any) => h.command))).toEqual([
      user,
      'strata hook ingest --client claude-code',
    ]);
  });

  it('replaces strata commands inside a group that keeps its other hooks, leaving their text alone', () => {
    const text = `{
  "hooks": {
    "Stop": [
      { "matcher": "*", "hooks": [
        { "type": "command", "command": "strata hook ingest", "timeout": 5 },
        { "type": "command", "command": "say 12345678901234567890" }
      ] }
    ]
  }
}
`;
    const after = mergeHookConfig('codex', text, 'hooks.json');
    expect(after).toContain('{ "type": "command", "command": "say 12345678901234567890" }');
    const doc = parseJsonc(after);
    expect(doc.hooks.Stop[0].hooks).toEqual([{ type: 'command', command: 'say 12345678901234567890' }]);
    expect(doc.hooks.Stop[1].hooks[0].command).toBe('strata hook ingest --client codex');
  });

  it('refuses a file that repeats a key strata must edit', () => {
    expect(() => mergeMcpConfig('cursor', '{"mcpServers": {}, "mcpServers": {}}', 'mcp.json')).toThrow(
      /mcp.json has "mcpServers" more than once; edit it by hand, left it unchanged/,
    );
  });
});

describe('TOML edits touch only command and args of the strata table', () => {
  const CODEX = `# top
model = "o3"

[mcp_servers.strata]
# my strata, pinned
command = "/opt/strata/bin/strata" # pinned build
args = [
  "serve",
  "--verbose",
]
env = { STRATA_HOME = "/data/strata" }
startup_timeout_sec = 20

# tail
[mcp_servers.strata.tools]
read = true
`;

  it('keeps env, comments, other keys and sub-tables', () => {
    const after = mergeMcpConfig('codex', CODEX, 'config.toml');
    expect(after).toBe(
      CODEX.replace('"/opt/strata/bin/strata"', '"strata"').replace(
        'args = [\n  "serve",\n  "--verbose",\n]',
        'args = ["mcp"]',
      ),
    );
    const doc = parseToml(after) as any;
    expect(doc.mcp_servers.strata.env).toEqual({ STRATA_HOME: '/data/strata' });
    expect(mergeMcpConfig('codex', after, 'config.toml')).toBe(after);
  });

  it('adds a missing key after the table statements, and refuses a table written twice or dotted', () => {
    expect(setTomlTableKeys('[a.b]\nx = 1\n\n[c]\n', 'a.b', [['y', '2']])).toBe('[a.b]\nx = 1\ny = 2\n\n[c]\n');
    expect(setTomlTableKeys('[a]\nb.x = 1\n', 'a.b', [['x', '2']])).toBeUndefined();
    expect(() => mergeMcpConfig('codex', 'mcp_servers.strata.command = "x"\n', 'config.toml')).toThrow(
      /in a form strata does not rewrite/,
    );
  });

  it('keeps CRLF line ends and a "#" inside a string value', () => {
    const text = '[mcp_servers.strata]\r\ncommand = "a#b" # note\r\nargs = []\r\n';
    expect(mergeMcpConfig('codex', text, 'config.toml')).toBe(
      '[mcp_servers.strata]\r\ncommand = "strata" # note\r\nargs = ["mcp"]\r\n',
    );
  });
});
