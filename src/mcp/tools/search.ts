// Owns the `search` tool: ranked full-text (or regex) search over every stored session, each hit citing
// the session and message number `read` opens and the token cost of that whole message.
import { z } from 'zod';
import { search } from '../../core/retrieval/search.js';
import { formatSearch } from '../../core/retrieval/format-search.js';
import { parseSelectors } from '../../core/retrieval/selectors.js';
import { displayPath, sessionHome } from '../../core/retrieval/locations.js';
import { messageTokenEstimate } from '../../core/retrieval/message-tokens.js';
import { homeDir } from '../../shared/paths.js';
import { estimateTokens } from '../../shared/tokenizer.js';
import { defineTool } from '../tool.js';
import {
  agentOption,
  agentsInput,
  selectorsInput,
  sessionHeading,
  timeInput,
  timeOption,
  estimatedTokensOutput,
} from '../schemas.js';

const hit = z.object({
  message: z.number().int().describe('1-based message number: read it with the read tool'),
  field: z.string(),
  timestamp: z.string().nullable(),
  score: z.number(),
  snippet: z.string(),
  messageTokens: z.number().int().describe('estimated tokens of the whole message (≈4 characters a token)'),
});

export const searchTool = defineTool({
  name: 'search',
  title: 'Search agent sessions',
  description:
    'Search every stored coding-agent session (Claude Code, Codex, Gemini, ...): ranked full text, or a regular ' +
    'expression. ' +
    'Returns hits grouped by session with snippets, message numbers and the token count of each whole message; open ' +
    'one with `read`.',
  inputSchema: {
    query: z
      .string()
      .min(1)
      .describe('words, "phrases", OR, -excluded; a JavaScript regular expression with regex: true'),
    regex: z.boolean().optional(),
    ignoreCase: z.boolean().optional().describe('case-insensitive regular expression'),
    session: z.string().min(1).optional().describe('only this session (id or unique prefix)'),
    project: z
      .string()
      .min(1)
      .optional()
      .describe('only this project: path segments (app, src/app), a folder or ~/app'),
    agents: agentsInput,
    after: timeInput('only messages after'),
    before: timeInput('only messages before'),
    in: selectorsInput('only these fields'),
    limit: z.number().int().min(1).max(100).default(10).describe('at most this many sessions'),
    maxPerSession: z.number().int().min(1).max(50).default(3).describe('hits shown per session'),
    context: z
      .number()
      .int()
      .min(0)
      .max(200)
      .optional()
      .describe('words of context on each side of a hit (default 12)'),
  },
  outputSchema: {
    query: z.string(),
    mode: z.enum(['fts', 'substring', 'regex']),
    window: z.object({ ranked: z.number().int() }).optional(),
    unindexed: z.number().int().optional(),
    sessions: z.array(z.object({ ...sessionHeading, hitCount: z.number().int(), hits: z.array(hit) })),
    tokens: estimatedTokensOutput,
  },
  readsHistory: true,
  async run(args, ctx) {
    const db = ctx.store.db;
    const result = search(db, {
      query: args.query,
      regex: Boolean(args.regex),
      ignoreCase: Boolean(args.ignoreCase),
      limit: args.limit,
      maxPerSession: args.maxPerSession,
      ...(args.context !== undefined ? { context: args.context } : {}),
      ...(args.session ? { session: args.session } : {}),
      ...(args.project ? { project: args.project } : {}),
      in: parseSelectors(args.in),
      ...timeOption('after', args.after),
      ...timeOption('before', args.before),
      ...agentOption(args.agents),
    });
    const sessions = result.sessions.map((s) => ({
      ...s,
      hits: s.hits.map((h) => ({ ...h, messageTokens: messageTokenEstimate(db, s.agent, s.id, h.message) })),
    }));
    const home = homeDir(ctx.env);
    // The readable text names each hit's message size too: many clients show the model only this block.
    const shown = {
      ...result,
      sessions: sessions.map((s) => ({
        ...s,
        hits: s.hits.map((h) => ({ ...h, snippet: `${h.snippet}  [${h.messageTokens} tokens]` })),
      })),
    };
    const text =
      sessions.length === 0
        ? 'no matches'
        : formatSearch(shown, 'hits', (p) => displayPath(p, null, sessionHome(p, home)));
    const { match: _match, ...rest } = result;
    return { text, structured: { ...rest, sessions, tokens: estimateTokens(text) } };
  },
});
