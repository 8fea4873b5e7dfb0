// Owns `strata mcp --remote NAME`: the history tools (search, sessions, read) answered from a team store
// through the SessionReader. Pack, code-map and logbook tools read local files and are not served;
// nothing is refreshed (the server is what machines pushed). Answers have the local tools' shapes.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createRequire } from 'node:module';
import type { SessionReader } from '../core/retrieval/session-reader.js';
import { formatSearch } from '../core/retrieval/format-search.js';
import { displayPath, sessionHome } from '../core/retrieval/locations.js';
import { formatRead } from '../core/retrieval/format-read.js';
import { parseSelectors } from '../core/retrieval/selectors.js';
import { REMOTE_LISTING_HEADER, type RemoteEntry, remoteListingRows } from '../core/team/remote-listing.js';
import { estimateTokens } from '../shared/tokenizer.js';
import { toolAnswer, toolError } from './tool.js';
import { compactRead, READ_TOOL_HINTS, readTool } from './tools/read.js';
import { sessionsTool } from './tools/sessions.js';
import { agentOption, agentsInput, estimatedTokensOutput, timeInput, timeOption } from './schemas.js';

const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };

const teamFilters = {
  machine: z.string().min(1).optional().describe('only sessions pushed from this machine'),
  user: z.string().min(1).optional().describe('only sessions of this user'),
};

const searchInput = {
  query: z.string().min(1).describe('a question in plain words, or keywords'),
  project: z.string().min(1).optional().describe('only this project: path segments (app, src/app) or ~/app'),
  agents: agentsInput,
  ...teamFilters,
  limit: z.number().int().min(1).max(100).default(10).describe('at most this many sessions'),
  maxPerSession: z.number().int().min(1).max(50).default(3).describe('hits shown per session'),
  context: z.number().int().min(0).max(200).optional().describe('words of context on each side of a hit'),
};

const searchOutput = {
  query: z.string(),
  mode: z.enum(['fts', 'substring', 'regex']),
  sessions: z.array(
    z.object({
      id: z.string(),
      agent: z.string().describe('agent@machine that pushed the session'),
      project: z.string().nullable(),
      title: z.string().nullable(),
      startedAt: z.string().nullable(),
      hitCount: z.number().int(),
      hits: z.array(z.object({ message: z.number().int(), field: z.string(), snippet: z.string() })),
    }),
  ),
  tokens: estimatedTokensOutput,
};

interface RemoteTool {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodRawShape;
  outputSchema: z.ZodRawShape;
  run(args: any): Promise<{ text: string; structured: unknown }>;
}

function remoteTools(reader: SessionReader, home: string | null): RemoteTool[] {
  const where = `the team store "${reader.name}"`;
  return [
    {
      name: 'search',
      title: 'Search the team store',
      description: `Search every session pushed to ${where}: ranked full text. Open a hit with \`read\`.`,
      inputSchema: searchInput,
      outputSchema: searchOutput,
      async run(args: z.objectOutputType<typeof searchInput, z.ZodTypeAny>) {
        const result = await reader.search({
          query: args.query,
          limit: args.limit,
          maxPerSession: args.maxPerSession,
          ...(args.context !== undefined ? { context: args.context } : {}),
          ...(args.project ? { project: args.project } : {}),
          ...(args.machine ? { machine: args.machine } : {}),
          ...(args.user ? { user: args.user } : {}),
          ...agentOption(args.agents),
        });
        const hints = { more: () => 'raise maxPerSession to see more', filters: '(project, machine, user)' };
        const text = result.sessions.length === 0 ? 'no matches' : formatSearch(result, 'hits', (p) => p, hints);
        return { text, structured: { ...result, tokens: estimateTokens(text) } };
      },
    },
    {
      name: 'sessions',
      title: 'List the team store sessions',
      description: `List the sessions pushed to ${where}, newest first, with statistics, machine and user.`,
      inputSchema: {
        project: sessionsTool.inputSchema.project,
        agents: agentsInput,
        ...teamFilters,
        since: timeInput('only sessions active since'),
        until: timeInput('only sessions started before'),
        limit: sessionsTool.inputSchema.limit,
        all: sessionsTool.inputSchema.all,
      },
      outputSchema: sessionsTool.outputSchema,
      async run(args) {
        const sessions = (await reader.list({
          limit: args.limit,
          ...(args.project ? { project: args.project } : {}),
          ...(args.machine ? { machine: args.machine } : {}),
          ...(args.user ? { user: args.user } : {}),
          ...agentOption(args.agents),
          ...timeOption('since', args.since),
          ...timeOption('until', args.until),
          ...(args.all ? { all: true } : {}),
        })) as RemoteEntry[];
        const rows = [REMOTE_LISTING_HEADER, ...remoteListingRows(sessions)].map((r) => r.join('  '));
        const text = sessions.length === 0 ? 'no sessions' : rows.join('\n');
        return { text, structured: { sessions, tokens: estimateTokens(text) } };
      },
    },
    {
      name: 'read',
      title: 'Read a team store session',
      description: `${readTool.description} From ${where}.`,
      inputSchema: readTool.inputSchema,
      outputSchema: readTool.outputSchema,
      async run(args: z.objectOutputType<typeof readTool.inputSchema, z.ZodTypeAny>) {
        const result = await reader.read(args.session, {
          ...(args.range !== undefined ? { range: args.range } : {}),
          show: parseSelectors(args.show),
          hide: parseSelectors(args.hide),
          ...(args.targetWords !== undefined ? { targetWords: args.targetWords } : {}),
          ...(args.skip !== undefined ? { skip: args.skip } : {}),
          ...(args.full ? { full: true } : {}),
        });
        const text = formatRead(result, (p) => displayPath(p, null, sessionHome(p, home)), READ_TOOL_HINTS);
        return { text, structured: { ...compactRead(result), tokens: estimateTokens(text) } };
      },
    },
  ];
}

/** `home`: this machine's home folder, for paths shown as `~/x` as the local tools show them. */
export function createRemoteServer(reader: SessionReader, home: string | null): McpServer {
  const server = new McpServer(
    { name: 'strata', version: pkg.version },
    {
      instructions:
        `strata: search, read and list the sessions pushed to the team store "${reader.name}" (PostgreSQL). ` +
        'Context packs, code maps and logbooks are local only: run `strata mcp` without --remote for them.',
    },
  );
  for (const tool of remoteTools(reader, home)) {
    const output = z.object(tool.outputSchema);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, openWorldHint: false },
      },
      (async (args: Record<string, unknown>) => {
        try {
          const answer = await tool.run(args);
          return toolAnswer({ text: answer.text, structured: output.parse(answer.structured) });
        } catch (error) {
          return toolError(error);
        }
      }) as never,
    );
  }
  return server;
}

/** Serves over `transport` until it closes. */
export async function serveRemote(reader: SessionReader, home: string | null, transport: Transport): Promise<void> {
  const server = createRemoteServer(reader, home);
  const closed = new Promise<void>((resolveClosed) => {
    server.server.onclose = () => resolveClosed();
  });
  await server.connect(transport);
  await closed;
}
