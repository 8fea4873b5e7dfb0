// Owns the `sessions` tool: the `strata index` listing (newest first, with its statistics and filters).
import { z } from 'zod';
import { listingLines } from '../../core/retrieval/format-listing.js';
import type { ListingFilter } from '../../core/retrieval/session-listing.js';
import { homeDir } from '../../shared/paths.js';
import { estimateTokens } from '../../shared/tokenizer.js';
import { defineTool } from '../tool.js';
import { agentOption, agentsInput, sessionHeading, timeInput, timeOption, estimatedTokensOutput } from '../schemas.js';

const entry = z.object({
  ...sessionHeading,
  endedAt: z.string().nullable(),
  messages: z.number().int(),
  userMessages: z.number().int(),
  bashCalls: z.number().int(),
  webFetches: z.number().int(),
  webSearches: z.number().int(),
  linesAdded: z.number().int(),
  linesRemoved: z.number().int(),
  filesTouched: z.number().int(),
  locations: z.array(z.string()),
  commits: z.number().int(),
  subagents: z.number().int(),
  parentId: z.string().nullable(),
  relation: z.string().nullable(),
  archived: z.boolean(),
  models: z.array(z.string()),
});

export const sessionsTool = defineTool({
  name: 'sessions',
  title: 'List agent sessions',
  description:
    'List stored coding-agent sessions newest first, with statistics (messages, prompts, shell calls, lines edited, ' +
    'files, commits, ' +
    'where the work happened). Filter by project, agent and time; open one with `read`.',
  inputSchema: {
    project: z
      .string()
      .min(1)
      .optional()
      .describe('only this project: path segments (app, src/app), a folder or ~/app'),
    agents: agentsInput,
    since: timeInput('only sessions active since'),
    until: timeInput('only sessions started before'),
    limit: z.number().int().min(1).max(1000).default(20),
    all: z.boolean().optional().describe('also list subagent sessions as their own rows'),
  },
  outputSchema: {
    sessions: z.array(entry),
    tokens: estimatedTokensOutput,
  },
  readsHistory: true,
  async run(args, ctx) {
    const filter: ListingFilter = {
      limit: args.limit,
      ...(args.project ? { project: args.project } : {}),
      ...agentOption(args.agents),
      ...timeOption('since', args.since),
      ...timeOption('until', args.until),
      ...(args.all ? { all: true } : {}),
    };
    const home = homeDir(ctx.env);
    const sessions = await ctx.reader.list(filter);
    const text = sessions.length === 0 ? 'no sessions' : listingLines(ctx.store.db, filter, home).join('\n');
    return { text, structured: { sessions, tokens: estimateTokens(text) } };
  },
});
