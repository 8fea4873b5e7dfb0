// Owns the strata MCP server: one McpServer whose tools are thin calls into the core over one open store
// connection. Tools that read history first refresh the store when stale (never waiting for a writer);
// nothing else writes. Every tool is read-only, and errors come back as isError results.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Store } from '../store/db.js';
import type { Env } from '../shared/paths.js';
import { createRefresher, type RefreshOutcome } from '../core/ingest/refresh.js';
import { RESCAN_PENDING_NOTE, redactOutgoing, redactOutgoingText, rescanPending } from '../core/redaction/outgoing.js';
import { createMemoryParseCache } from '../core/codemap/memory-cache.js';
import { type SessionReader, sqliteReader } from '../core/retrieval/session-reader.js';
import { providerForStore } from '../core/embed/create-provider.js';
import { homeDir } from '../shared/paths.js';
import { TOOLS } from './tools/index.js';
import { toolAnswer, toolError, type StrataTool, type ToolContext } from './tool.js';

const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };

export interface StrataServerOptions {
  store: Store;
  env: Env;
  cwd: string;
  /** Folders the pack and code tools may read (default: cwd). */
  roots?: string[];
  /** Seconds a refresh of the default roots stays fresh (default 30). */
  refreshSeconds?: number;
  tools?: StrataTool<any, any>[];
  /** Replaces the refresh (tests). */
  refresh?: () => Promise<RefreshOutcome>;
  log?: (line: string) => void;
}

/** What the server tells a client at `initialize`: which store it opened (a client may start it elsewhere). */
export function serverInstructions(storePath: string | undefined): string {
  return (
    'strata: search, read and list stored coding-agent sessions, context packs and code maps. ' +
    `Store: ${storePath ?? 'unknown'}. Your own calls to these tools are kept out of later searches.`
  );
}

/** The tools' reader of the local store: paths shown from `env`'s home, semantic ranking when embedded. */
export function storeReader(store: Store, env: Env): SessionReader {
  return sqliteReader(store.db, homeDir(env), () => providerForStore(store.db, env));
}

export function createStrataServer(options: StrataServerOptions): { server: McpServer; context: ToolContext } {
  const log = options.log ?? (() => {});
  const refresh =
    options.refresh ??
    createRefresher({
      store: options.store,
      env: options.env,
      cwd: options.cwd,
      maxAgeMs: (options.refreshSeconds ?? 30) * 1000,
      onError: log,
    });
  const roots = (options.roots && options.roots.length > 0 ? options.roots : [options.cwd]).map((r) =>
    resolve(options.cwd, r),
  );
  const context: ToolContext = {
    store: options.store,
    reader: storeReader(options.store, options.env),
    env: options.env,
    roots,
    refresh,
    parseCache: createMemoryParseCache(),
  };
  const server = new McpServer(
    { name: 'strata', version: pkg.version },
    { instructions: serverInstructions(options.store.path) },
  );
  for (const tool of options.tools ?? TOOLS) {
    // Clients check structuredContent against the published schema, extra keys included: keep only its keys.
    const output = z.object(tool.outputSchema);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: {
          title: tool.title,
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      (async (args: Record<string, unknown>) => {
        try {
          if (tool.readsHistory) await context.refresh();
          const answer = await tool.run(args, context);
          const structured = output.parse(answer.structured);
          if (!rescanPending(context.store.db)) return toolAnswer({ text: answer.text, structured });
          // Stored texts still wait for a scan with newer secret rules: the answer is redacted with them.
          const text = `${redactOutgoingText(answer.text)}\n\nstrata: ${RESCAN_PENDING_NOTE}`;
          return toolAnswer({ text, structured: redactOutgoing(structured) });
        } catch (error) {
          return toolError(error);
        }
      }) as never,
    );
  }
  return { server, context };
}

/** Serves over `transport` until it closes. */
export async function serveStrata(options: StrataServerOptions, transport: Transport): Promise<void> {
  const { server, context } = createStrataServer(options);
  const closed = new Promise<void>((resolveClosed) => {
    server.server.onclose = () => resolveClosed();
  });
  await server.connect(transport);
  await closed;
  context.parseCache.close();
}
