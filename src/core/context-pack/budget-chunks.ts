// Owns fetching chunks by id within a token budget: every id must exist (NOT_FOUND names the missing
// ones), chunks are added in the order given until the next one would not fit, and the rest are omitted.
import { StrataError } from '../../shared/errors.js';
import { countTokens } from '../../shared/tokenizer.js';
import type { ContextChunk } from './context-db.js';
import type { SegmentContext } from './runtime.js';

export interface BudgetedChunks {
  segment: string;
  budget: number | null;
  usedTokens: number;
  included: (ContextChunk & { tokens: number })[];
  /** Ids left out because the budget was reached (every id after the first that did not fit). */
  omitted: string[];
}

export function getChunksWithinBudget(ctx: SegmentContext, ids: string[], budget?: number): BudgetedChunks {
  const found = ids.map((id) => ({ id, chunk: ctx.getContext(id) }));
  const missing = found.filter((f) => !f.chunk).map((f) => f.id);
  if (missing.length > 0) {
    throw new StrataError('NOT_FOUND', `no chunk with id ${missing.join(', ')} in segment ${ctx.paths.name} (find ids with \`strata pack search\`)`);
  }
  const included: BudgetedChunks['included'] = [];
  const omitted: string[] = [];
  let used = 0;
  for (const { chunk } of found) {
    const c = chunk as ContextChunk;
    const tokens = countTokens(c.text);
    if (omitted.length > 0 || (budget !== undefined && used + tokens > budget)) {
      omitted.push(c.id);
      continue;
    }
    used += tokens;
    included.push({ ...c, tokens });
  }
  return { segment: ctx.paths.name, budget: budget ?? null, usedTokens: used, included, omitted };
}
