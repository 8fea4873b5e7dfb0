// Owns `strata mcp`: serves the MCP tools over stdio (stdout carries only the protocol; logs go to stderr).
import type { Command } from 'commander';
import { usageError } from '../../shared/errors.js';
import { homeDir } from '../../shared/paths.js';
import { configWriteLine } from './config-write-line.js';
import type { CliIo } from '../io.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

const MCP_EXAMPLES = `
Examples:
  strata mcp                                  serve over stdio; pack and code tools read under the current folder
  strata mcp --root ~/src/app --root ~/docs   pack and code tools may read under these folders only
  strata mcp --refresh 300                    re-ingest the default locations at most every 5 minutes
  strata mcp --remote team                    search, sessions and read from the team store "team"
  strata mcp config --client codex            the snippet for Codex's config.toml (--write merges it)
Tools: search, sessions, read (stored sessions); pack_search, pack_get (context packs); code_map,
code_symbol (code maps). All are read-only. Before search, sessions and read, the server ingests the
default locations incrementally when the last such ingest is older than --refresh seconds; when another
ingest holds the store it answers from what is stored. With --remote NAME only search, sessions and read
are served, from the team store; packs, code maps and logbooks are local only.`;

export function registerMcpCommand(program: Command, io: CliIo): void {
  const mcp = program
    .command('mcp')
    .description('MCP server over stdio for coding agents (search, sessions, read, packs, code maps)')
    .addHelpText('after', MCP_EXAMPLES);
  mcp
    .command('serve', { isDefault: true })
    .description('serve the MCP tools over stdio (the default `strata mcp` subcommand)')
    .option(
      '--root <dir>',
      'folder the pack and code tools may read under (repeatable; default: the current folder)',
      collect,
    )
    .option(
      '--refresh <seconds>',
      'ingest the default locations before a history query when the last ingest is older (default 30)',
      '30',
    )
    .option('--check', 'open the store, print which one and how many sessions it holds, and exit')
    .option('--remote <name>', 'serve search, sessions and read from a team store (see `strata remote`)')
    .addHelpText('after', MCP_EXAMPLES)
    .action(async (opts: { root?: string[]; refresh: string; check?: boolean; remote?: string }) => {
      const refreshSeconds = Number(opts.refresh);
      if (!Number.isFinite(refreshSeconds) || refreshSeconds < 0)
        throw usageError(`--refresh must be a number of seconds >= 0, got "${opts.refresh}"`);
      if (opts.remote) return serveRemoteMcp(io, opts.remote);
      if (opts.check) return checkMcp(io);
      const [{ serveStrata }, { StdioServerTransport }, { openStoreForRead }, { BoundedLines }] = await Promise.all([
        import('../../mcp/server.js'),
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../store-access.js'),
        import('../../mcp/bounded-stdin.js'),
      ]);
      const store = openStoreForRead(io);
      // Requests reach the SDK whole and bounded: a huge one is answered with an error, the session goes on.
      const requests = process.stdin.pipe(new BoundedLines((line) => process.stdout.write(line)));
      const transport = new StdioServerTransport(requests);
      // The client closing our stdin ends the session: close the transport so the store closes cleanly.
      process.stdin.once('end', () => void transport.close());
      try {
        await serveStrata(
          {
            store,
            env: io.env,
            cwd: io.cwd,
            ...(opts.root ? { roots: opts.root } : {}),
            refreshSeconds,
            log: (line) => io.stderr.write(`strata: ${line}\n`),
          },
          transport,
        );
      } finally {
        store.close();
      }
    });
  registerMcpConfigCommand(mcp, io);
}

const CONFIG_EXAMPLES = `
Examples:
  strata mcp config --client codex            print the snippet for ~/.codex/config.toml
  strata mcp config --client cursor --write   merge it into ~/.cursor/mcp.json (backup kept)
  strata mcp config --client claude-code --write   write .mcp.json in this project
Files: claude-code .mcp.json (this project), codex $CODEX_HOME/config.toml, gemini ~/.gemini/settings.json,
cursor ~/.cursor/mcp.json, opencode ~/.config/opencode/opencode.json. --write changes only strata's entry,
keeps a timestamped backup of a file it changes, writes atomically, and refuses a file it cannot parse.`;

/** `strata mcp --remote NAME`: the history tools over a team store (connected and checked before serving). */
async function serveRemoteMcp(io: CliIo, name: string): Promise<void> {
  const [{ serveRemote }, { StdioServerTransport }, { openRemoteReader }] = await Promise.all([
    import('../../mcp/remote-server.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('./remote-search.js'),
  ]);
  const reader = await openRemoteReader(io, name);
  const transport = new StdioServerTransport();
  process.stdin.once('end', () => void transport.close());
  try {
    await serveRemote(reader, homeDir(io.env), transport);
  } finally {
    await reader.close();
  }
}

/** `strata mcp --check`: the store the server would open (stdout: one line), without serving. */
async function checkMcp(io: CliIo): Promise<void> {
  const { openStoreForRead } = await import('../store-access.js');
  const store = openStoreForRead(io);
  try {
    const sessions = store.db.prepare('SELECT COUNT(*) FROM sessions').pluck().get() as number;
    io.stdout.write(`store: ${store.path} (${sessions} sessions, schema ${store.schemaVersion})\n`);
  } finally {
    store.close();
  }
}

export function registerMcpConfigCommand(mcp: Command, io: CliIo): void {
  mcp
    .command('config')
    .description("print (or merge with --write) the strata MCP server entry for a client's configuration file")
    .requiredOption('--client <name>', 'claude-code, codex, gemini, cursor or opencode')
    .option('--write', 'merge the entry into the configuration file')
    .option('--path <file>', "configuration file to merge into (default: the client's own)")
    .addHelpText('after', CONFIG_EXAMPLES)
    .action(async (opts: { client: string; write?: boolean; path?: string }) => {
      const [
        { isAgentClient, mcpConfigPath, AGENT_CLIENTS },
        { mcpConfigSnippet, mergeMcpConfig },
        { writeConfigFile },
        { tildify },
        { resolve },
      ] = await Promise.all([
        import('../../core/agent-config/clients.js'),
        import('../../core/agent-config/mcp-config.js'),
        import('../../core/agent-config/config-file.js'),
        import('../../shared/paths.js'),
        import('node:path'),
      ]);
      if (!isAgentClient(opts.client))
        throw usageError(`--client must be one of ${AGENT_CLIENTS.join(', ')}, got "${opts.client}"`);
      const client = opts.client;
      const path = opts.path ? resolve(io.cwd, opts.path) : mcpConfigPath(client, io.env, io.cwd);
      if (!opts.write) {
        io.stderr.write(`strata: add this to ${tildify(path, io.env)} (or run with --write):\n`);
        io.stdout.write(mcpConfigSnippet(client, io.env));
        return;
      }
      const result = writeConfigFile(path, (current) => mergeMcpConfig(client, current, path, io.env));
      io.stderr.write(configWriteLine(result, io.env, 'already has the strata server'));
      const { mcpConfigNotes } = await import('../../core/agent-config/client-notes.js');
      for (const note of mcpConfigNotes(client)) io.stderr.write(`strata: next: ${note}\n`);
    });
}
