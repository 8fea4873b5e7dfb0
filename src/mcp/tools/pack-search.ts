// Owns the `pack_search` tool: full-text search over one segment's Markdown context pack.
import { z } from 'zod';
import { QUERY_MAX_CHARS, QUERY_MAX_WORDS } from '../../shared/query-limits.js';
import { countTokens } from '../../shared/tokenizer.js';
import { defineTool } from '../tool.js';
import { openConfinedSegment } from '../confined.js';
import { tokensOutput } from '../schemas.js';

export const segmentInput = z
  .string()
  .optional()
  .describe(
    'segment folder (relative to the first root, or absolute under a root) whose _ctx/ holds the pack; default the ' +
      'root itself',
  );

export const packSearchTool = defineTool({
  name: 'pack_search',
  title: 'Search a context pack',
  description:
    'Full-text search (BM25, titles weighted) over the chunks of a Markdown context pack built with `strata pack ' +
    'build`. ' +
    'Returns chunk ids with titles, locations, previews and token estimates; fetch them with `pack_get`.',
  inputSchema: {
    query: z
      .string()
      .min(1)
      .max(QUERY_MAX_CHARS, `at most ${QUERY_MAX_CHARS} characters`)
      .describe(
        'plain words, or FTS5 syntax: "exact phrase", a OR b, prefix*, title_path:word. ' +
          `At most ${QUERY_MAX_WORDS} words and ${QUERY_MAX_CHARS} characters`,
      ),
    segment: segmentInput,
    limit: z.number().int().min(1).max(100).default(10),
  },
  outputSchema: {
    segment: z.string(),
    query: z.string(),
    mode: z.enum(['all', 'any', 'explicit', 'substring']),
    hits: z.array(
      z.object({
        id: z.string(),
        doc: z.string(),
        title_path: z.array(z.string()),
        preview: z.string(),
        source_path: z.string(),
        start_line: z.number().int(),
        end_line: z.number().int(),
        token_est: z.number().int(),
        score: z.number(),
      }),
    ),
    tokens: tokensOutput,
  },
  readsHistory: false,
  async run(args, ctx) {
    const segment = openConfinedSegment(ctx, args.segment);
    try {
      const result = segment.searchContext(args.query, args.limit);
      const lines = result.hits.map((h, i) => {
        const title = h.title_path.length > 0 ? h.title_path.join(' > ') : '(before first heading)';
        const where = `${h.source_path}:${h.start_line}-${h.end_line}, ~${h.token_est} tokens`;
        return `${i + 1}. ${h.id}  ${title}  (${where})${h.preview ? `\n   ${h.preview}` : ''}`;
      });
      if (result.mode === 'any' && lines.length > 0)
        lines.unshift('no chunk has every word; showing chunks with any of them');
      const text = lines.length > 0 ? lines.join('\n') : `no chunks match ${JSON.stringify(result.query)}`;
      return {
        text,
        structured: {
          segment: segment.paths.name,
          query: result.query,
          mode: result.mode,
          hits: result.hits,
          tokens: countTokens(text),
        },
      };
    } finally {
      segment.close();
    }
  },
});
