// Owns the `search` tool: ranked full-text (or regex) search over every stored session, each hit citing
// the session and message number `read` opens and the token cost of that whole message.
import { z } from 'zod';
import type { SearchResult, SearchSession } from '../../core/retrieval/search.js';
import { groupDigits } from '../../shared/numbers.js';
import { SEARCH_MODES } from '../../core/embed/mode-search.js';
import { formatSearch, type SearchHints } from '../../core/retrieval/format-search.js';
import { parseSelectors } from '../../core/retrieval/selectors.js';
import { displayPath, sessionHome } from '../../core/retrieval/locations.js';
import { messageTokenEstimate } from '../../core/retrieval/message-tokens.js';
import { callingSessionIds } from '../../core/retrieval/calling-session.js';
import { QUERY_MAX_CHARS, QUERY_MAX_WORDS } from '../../shared/query-limits.js';
import { homeDir } from '../../shared/paths.js';
import { estimateTokens } from '../../shared/tokenizer.js';
import { defineTool } from '../tool.js';
import { agentOption, agentsInput, selectorsInput, timeInput, timeOption, estimatedTokensOutput } from '../schemas.js';

const hit = z.object({
  message: z.number().int().describe('1-based message number: read it with the read tool'),
  field: z.string(),
  snippet: z.string(),
  messageTokens: z.number().int().describe('estimated tokens of the whole message (≈4 characters a token)'),
});

const session = z.object({
  id: z.string().describe('the session id: pass it (or a unique prefix) as session, or to read'),
  agent: z.string(),
  project: z.string().nullable(),
  title: z.string().nullable(),
  startedAt: z.string().nullable(),
  hitCount: z.number().int(),
  match: z.enum(['near', 'partial']).optional().describe('no block holds every word: near (a few messages), partial'),
  missing: z.array(z.string()).optional().describe('words of the query the session lacks'),
  hits: z.array(hit),
  more: z
    .object({ session: z.string(), maxPerSession: z.number().int() })
    .optional()
    .describe('more hits than shown: search again with the same query and these arguments to see them'),
});

/** Seeing more is said in this tool's own arguments, not the CLI's flags. */
const TOOL_HINTS: SearchHints = {
  more: (s) => `search again with session: "${s.shortId}", maxPerSession: ${Math.min(50, s.hitCount)}`,
  filters: '(project, after, in, session) to rank every match',
  unindexed: '(an ingest is writing them); regex: true searches them',
};

/** What the text's closing notes say, for clients that show the model structuredContent only. */
function resultHint(result: SearchResult): string | undefined {
  const notes: string[] = [];
  if (result.window) {
    const ranked = groupDigits(result.window.ranked);
    notes.push(
      `more than ${ranked} blocks match: these are the best of the newest ${ranked}. Add words or a filter ` +
        TOOL_HINTS.filters,
    );
  }
  if (result.unindexed)
    notes.push(
      `${groupDigits(result.unindexed)} recently stored blocks are not in the full-text index yet ` +
        TOOL_HINTS.unindexed,
    );
  if (result.sessions.length === 0 && result.hidden && result.hidden.noise > 0)
    notes.push(`no matches in messages; ${groupDigits(result.hidden.noise)} in noise: search again with in: ["noise"]`);
  return notes.length > 0 ? notes.join('. ') : undefined;
}

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
      .max(QUERY_MAX_CHARS, `at most ${QUERY_MAX_CHARS} characters`)
      .describe(
        'a question in plain words, or keywords: words, "phrases", OR, -excluded; a JavaScript regular ' +
          `expression with regex: true. At most ${QUERY_MAX_WORDS} words and ${QUERY_MAX_CHARS} characters`,
      ),
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
    mode: z
      .enum(SEARCH_MODES as [string, ...string[]])
      .optional()
      .describe('lexical, semantic or hybrid (default: hybrid when the store holds embeddings, else lexical)'),
  },
  outputSchema: {
    query: z.string(),
    mode: z.enum(['fts', 'substring', 'regex']),
    ranking: z.enum(['lexical', 'semantic', 'hybrid']).optional(),
    window: z.object({ ranked: z.number().int() }).optional(),
    corrected: z
      .array(z.object({ from: z.string(), to: z.string() }))
      .optional()
      .describe("question words that matched nothing, searched by the index's nearest spelling"),
    unindexed: z.number().int().optional(),
    hidden: z.object({ noise: z.number().int() }).optional().describe('matches only in noise (search in: noise)'),
    hint: z.string().optional().describe('what the results leave out and which arguments find it'),
    sessions: z.array(session),
    tokens: estimatedTokensOutput,
  },
  readsHistory: true,
  async run(args, ctx) {
    const db = ctx.store.db;
    // The calling session (its transcript refreshed a moment ago) is left out, unless asked for by id.
    const own = args.session ? new Set<string>() : callingSessionIds(db, ctx.env);
    const mode = args.mode as (typeof SEARCH_MODES)[number] | undefined;
    const found = await ctx.reader.search({
      ...(mode ? { mode } : {}),
      query: args.query,
      regex: Boolean(args.regex),
      ignoreCase: Boolean(args.ignoreCase),
      limit: args.limit + own.size,
      maxPerSession: args.maxPerSession,
      ...(args.context !== undefined ? { context: args.context } : {}),
      ...(args.session ? { session: args.session } : {}),
      ...(args.project ? { project: args.project } : {}),
      in: parseSelectors(args.in),
      ...timeOption('after', args.after),
      ...timeOption('before', args.before),
      ...agentOption(args.agents),
    });
    const result = { ...found, sessions: found.sessions.filter((s) => !own.has(s.id)).slice(0, args.limit) };
    const tokensOf = (s: SearchSession, message: number) => messageTokenEstimate(db, s.agent, s.id, message);
    // Compact: one id, no scores or hit times; the text block says the same in prose.
    const sessions = result.sessions.map((s) => ({
      id: s.id,
      agent: s.agent,
      project: s.project,
      title: s.title,
      startedAt: s.startedAt,
      hitCount: s.hitCount,
      ...(s.match ? { match: s.match } : {}),
      ...(s.missing && s.missing.length > 0 ? { missing: s.missing } : {}),
      hits: s.hits.map((h) => ({
        message: h.message,
        field: h.field,
        snippet: h.snippet,
        messageTokens: tokensOf(s, h.message),
      })),
      ...(s.hitCount > s.hits.length ? { more: { session: s.shortId, maxPerSession: Math.min(50, s.hitCount) } } : {}),
    }));
    const home = homeDir(ctx.env);
    // The readable text names each hit's message size too: many clients show the model only this block.
    const shown = {
      ...result,
      sessions: result.sessions.map((s, i) => ({
        ...s,
        hits: s.hits.map((h, j) => ({
          ...h,
          snippet: `${h.snippet}  [${sessions[i]!.hits[j]!.messageTokens} tokens]`,
        })),
      })),
    };
    const text =
      sessions.length === 0
        ? 'no matches'
        : formatSearch(shown, 'hits', (p) => displayPath(p, null, sessionHome(p, home)), TOOL_HINTS);
    const { match: _match, sessions: _sessions, ...rest } = result;
    const hint = resultHint(result);
    return { text, structured: { ...rest, sessions, ...(hint ? { hint } : {}), tokens: estimateTokens(text) } };
  },
});
