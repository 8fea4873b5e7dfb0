// Owns the `read` tool: a session (or messages N-M of it) with the uniform word truncation of `strata read`.
import { z } from 'zod';
import type { ReadResult } from '../../core/retrieval/read-session.js';
import { formatRead, type ReadHints } from '../../core/retrieval/format-read.js';
import { parseSelectors } from '../../core/retrieval/selectors.js';
import { displayPath, sessionHome } from '../../core/retrieval/locations.js';
import { homeDir } from '../../shared/paths.js';
import { estimateTokens } from '../../shared/tokenizer.js';
import { defineTool } from '../tool.js';
import { selectorsInput, estimatedTokensOutput } from '../schemas.js';

/** One answer's bounds: ~100,000 tokens at most, whatever `full` or `targetWords` ask. */
const READ_MAX_WORDS = 50_000;
const READ_MAX_CHARS = 400_000;

// Compact for the model's context: a key at its default (no tool, shown, no error, not cut) is left out.
const block = z.object({
  field: z.string(),
  kind: z.string(),
  toolName: z.string().optional(),
  toolCallId: z.string().optional(),
  visibility: z.literal('count').optional().describe('count: only the word count is shown (use show)'),
  isError: z.literal(true).optional(),
  words: z.number().int(),
  text: z.string(),
  truncated: z.literal(true).optional(),
});

/** Reading more is said in this tool's own arguments, not the CLI's flags. */
export const READ_TOOL_HINTS: ReadHints = {
  more: (skip) => `To see more, read again with skip: ${skip}.`,
  subagent: (id) => `read session: "${id}"`,
};

/** The structured answer: blocks without their default keys, and the skip that reads on past a cut. */
export function compactRead(result: ReadResult) {
  const messages = result.messages.map((m) => ({
    n: m.n,
    role: m.role,
    kind: m.kind,
    timestamp: m.timestamp,
    ...(m.model ? { model: m.model } : {}),
    blocks: m.blocks.map((b) => ({
      field: b.field,
      kind: b.kind,
      ...(b.toolName ? { toolName: b.toolName } : {}),
      ...(b.toolCallId ? { toolCallId: b.toolCallId } : {}),
      ...(b.visibility === 'count' ? { visibility: 'count' as const } : {}),
      ...(b.isError ? { isError: true as const } : {}),
      words: b.words,
      text: b.text,
      ...(b.truncated ? { truncated: true as const } : {}),
    })),
  }));
  const cut = result.wordLimit !== null && result.messages.some((m) => m.blocks.some((b) => b.truncated));
  return { ...result, messages, ...(cut ? { more: { skip: result.skip + result.wordLimit! } } : {}) };
}

export const readTool = defineTool({
  name: 'read',
  title: 'Read an agent session',
  description:
    'Read a stored session, or message N / messages N-M of it (numbers from `search`), truncated uniformly to a word ' +
    'target. ' +
    'Tool results are hidden and thinking counted unless shown with `show`.',
  inputSchema: {
    session: z.string().min(1).describe('session id or a unique prefix of it'),
    range: z
      .string()
      .regex(/^\s*\d+\s*(-\s*\d*)?\s*$/, 'use N, N-M or N-')
      .optional()
      .describe('message N, messages N-M (1-based), or N- to the end'),
    show: selectorsInput('show these fields'),
    hide: selectorsInput('hide these fields'),
    targetWords: z
      .number()
      .int()
      .min(1)
      .max(READ_MAX_WORDS)
      .optional()
      .describe(`total words to aim for (default 2000, at most ${READ_MAX_WORDS})`),
    skip: z.number().int().min(0).optional().describe('skip the first n words of every field'),
    full: z
      .boolean()
      .optional()
      .describe(`no truncation, up to ${READ_MAX_WORDS} words and ${READ_MAX_CHARS} characters in all`),
  },
  outputSchema: {
    session: z.object({
      externalId: z.string(),
      agent: z.string(),
      project: z.string().nullable(),
      title: z.string().nullable(),
      startedAt: z.string().nullable(),
      endedAt: z.string().nullable(),
      relation: z.string().nullable(),
      messages: z.number().int(),
    }),
    from: z.number().int(),
    to: z.number().int(),
    wordLimit: z.number().int().nullable(),
    skip: z.number().int(),
    charLimit: z.number().int().optional(),
    messages: z.array(
      z.object({
        n: z.number().int(),
        role: z.string(),
        kind: z.string(),
        timestamp: z.string().nullable(),
        model: z.string().optional(),
        blocks: z.array(block),
      }),
    ),
    more: z.object({ skip: z.number().int() }).optional().describe('fields were cut: read again with this skip'),
    tokens: estimatedTokensOutput,
  },
  readsHistory: true,
  async run(args, ctx) {
    const result = await ctx.reader.read(args.session, {
      ...(args.range !== undefined ? { range: args.range } : {}),
      show: parseSelectors(args.show),
      hide: parseSelectors(args.hide),
      // `full` is bounded too: one answer is read by a model whose context is finite (and by one server thread).
      ...(args.full
        ? { targetWords: READ_MAX_WORDS }
        : args.targetWords !== undefined
          ? { targetWords: args.targetWords }
          : {}),
      ...(args.skip !== undefined ? { skip: args.skip } : {}),
      maxChars: READ_MAX_CHARS,
    });
    const home = homeDir(ctx.env);
    const text = formatRead(result, (p) => displayPath(p, null, sessionHome(p, home)), READ_TOOL_HINTS);
    return { text, structured: { ...compactRead(result), tokens: estimateTokens(text) } };
  },
});
