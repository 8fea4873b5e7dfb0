// Owns the `logbook` tool: the project's stored logbook (decisions, facts, bugs), newest first, cut to a
// token budget; each event cites the message `read` opens.
import { z } from 'zod';
import { logbookForProject } from '../../core/logbook/show.js';
import { EVENT_TYPES } from '../../core/logbook/types.js';
import { countTokens } from '../../shared/tokenizer.js';
import { defineTool } from '../tool.js';
import { timeInput, timeOption, tokensOutput } from '../schemas.js';

const event = z.object({
  timestamp: z.string(),
  type: z.enum(EVENT_TYPES),
  content: z.string(),
  rationale: z.string().optional(),
  resolution: z.string().optional(),
  session: z.string(),
  message: z.number().int(),
  agent: z.string(),
});

export const logbookTool = defineTool({
  name: 'logbook',
  title: 'Project logbook',
  description:
    "The project's logbook: decisions, facts and bugs distilled from every agent session, newest first, cut to a " +
    'token budget. Each event names the session and message number to open with `read`. Built by `strata logbook`.',
  inputSchema: {
    project: z
      .string()
      .min(1)
      .optional()
      .describe('project folder (default: the first root the server was started with)'),
    budget: z.number().int().min(50).max(100_000).default(1500).describe('most tokens of text to return'),
    types: z.array(z.enum(EVENT_TYPES)).min(1).optional().describe('only these event types'),
    since: timeInput('only events since'),
  },
  outputSchema: {
    workspace: z.string().nullable(),
    events: z.array(event),
    matching: z.number().int().describe('events matching the filters before the budget cut'),
    tokens: tokensOutput,
  },
  readsHistory: false,
  async run(args, ctx) {
    const project = args.project ?? ctx.roots[0] ?? process.cwd();
    const view = logbookForProject(ctx.store.db, project, {
      budget: args.budget,
      types: args.types,
      ...timeOption('since', args.since),
    });
    const text = view.workspace
      ? view.text
      : `no logbook for ${project}: build one with \`strata logbook --project ${project}\``;
    const events = view.events.map((e) => ({
      timestamp: e.timestamp,
      type: e.type,
      content: e.content,
      ...(e.rationale ? { rationale: e.rationale } : {}),
      ...(e.resolution ? { resolution: e.resolution } : {}),
      session: e.source.session,
      message: e.source.message,
      agent: e.source.agent,
    }));
    return {
      text,
      structured: { workspace: view.workspace, events, matching: view.matching, tokens: countTokens(text) },
    };
  },
});
