// Owns `strata mcp`: serves the MCP tools over stdio (stdout carries only the protocol; logs go to stderr).
import type { Command } from 'commander';
import { usageError } from '../../shared/errors.js';
import type { CliIo } from '../io.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

const MCP_EXAMPLES = `
Examples:
  strata mcp                                  serve over stdio; pack and code tools read under the current folder
  strata mcp --root ~/src/app --root ~/docs   pack and code tools may read under these folders only
  strata mcp --refresh 300                    re-ingest the default locations at most every 5 minutes
Tools: search, sessions, read (stored sessions); pack_search, pack_get (context packs); code_map,
code_symbol (code maps). All are read-only. Before search, sessions and read, the server ingests the
default locations incrementally when the last such ingest is older than --refresh seconds; when another
ingest holds the store it answers from what is stored.`;

export function registerMcpCommand(program: Command, io: CliIo): void {
  const mcp = program.command('mcp').description('MCP server over stdio for coding agents (search, sessions, read, packs, code maps)').addHelpText('after', MCP_EXAMPLES);
  mcp
    .command('serve', { isDefault: true })
    .description('serve the MCP tools over stdio (the default `strata mcp` subcommand)')
    .option('--root <dir>', 'folder the pack and code tools may read under (repeatable; default: the current folder)', collect)
    .option('--refresh <seconds>', 'ingest the default locations before a history query when the last ingest is older (default 30)', '30')
    .addHelpText('after', MCP_EXAMPLES)
    .action(async (opts: { root?: string[]; refresh: string }) => {
      const refreshSeconds = Number(opts.refresh);
      if (!Number.isFinite(refreshSeconds) || refreshSeconds < 0) throw usageError(`--refresh must be a number of seconds >= 0, got "${opts.refresh}"`);
      const [{ serveStrata }, { StdioServerTransport }, { openStoreForRead }] = await Promise.all([
        import('../../mcp/server.js'),
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../store-access.js'),
      ]);
      const store = openStoreForRead(io);
      try {
        await serveStrata(
          { store, env: io.env, cwd: io.cwd, ...(opts.root ? { roots: opts.root } : {}), refreshSeconds, log: (line) => io.stderr.write(`strata: ${line}\n`) },
          new StdioServerTransport(),
        );
      } finally {
        store.close();
      }
    });
}
