// Owns the `pack_get` tool: chunks of a context pack by id, in the order given, within a token budget.
import { z } from 'zod';
import { getChunksWithinBudget } from '../../core/context-pack/budget-chunks.js';
import { countTokens } from '../../shared/tokenizer.js';
import { defineTool } from '../tool.js';
import { openConfinedSegment } from '../confined.js';
import { tokensOutput } from '../schemas.js';
import { segmentInput } from './pack-search.js';

export const packGetTool = defineTool({
  name: 'pack_get',
  title: 'Get context pack chunks',
  description:
    'Fetch chunks of a Markdown context pack by id (from `pack_search`), in the order given. With a budget, chunks ' +
    'are added ' +
    'until the next one would not fit; the ones left out are listed in `omitted`.',
  inputSchema: {
    ids: z.array(z.string().min(1)).min(1).max(200),
    segment: segmentInput,
    budget: z.number().int().min(1).optional().describe('at most this many tokens of chunk text'),
  },
  outputSchema: {
    segment: z.string(),
    budget: z.number().int().nullable(),
    usedTokens: z.number().int(),
    truncated: z.boolean(),
    chunks: z.array(
      z.object({
        id: z.string(),
        doc: z.string(),
        title_path: z.array(z.string()),
        source_path: z.string(),
        start_line: z.number().int(),
        end_line: z.number().int(),
        text: z.string(),
        tokens: z.number().int(),
      }),
    ),
    omitted: z.array(z.string()),
    tokens: tokensOutput,
  },
  readsHistory: false,
  async run(args, ctx) {
    const segment = openConfinedSegment(ctx, args.segment);
    let result;
    try {
      result = getChunksWithinBudget(segment, args.ids, args.budget);
    } finally {
      segment.close();
    }
    const parts = result.printed ? [result.printed] : [];
    if (result.omitted.length > 0)
      parts.push(`[budget of ${result.budget} tokens reached: omitted ${result.omitted.join(', ')}]`);
    const text = parts.join('\n');
    return {
      text,
      structured: {
        segment: result.segment,
        budget: result.budget,
        usedTokens: result.usedTokens,
        truncated: result.omitted.length > 0,
        chunks: result.included,
        omitted: result.omitted,
        tokens: countTokens(text),
      },
    };
  },
});
