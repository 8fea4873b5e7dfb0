// Owns fetching chunks by id within a token budget: every id must exist (NOT_FOUND names the missing
// ones), chunks are added in the order given until the printed text of the next would not fit (the
// budget covers each chunk's header line too), and the rest are omitted.
import { StrataError } from '../../shared/errors.js';
import { countTokens, fitsWithoutCounting } from '../../shared/tokenizer.js';
import type { ContextChunk } from './context-db.js';
import type { SegmentContext } from './runtime.js';

export interface BudgetedChunks {
  segment: string;
  budget: number | null;
  /** Tokens of `printed` (header lines included). */
  usedTokens: number;
  included: (ContextChunk & { tokens: number })[];
  /** Ids left out because the budget was reached (every id after the first that did not fit). */
  omitted: string[];
  /** The included chunks as printed: a header line naming id, location and titles, then the text. */
  printed: string;
}

/** `path:start-end` of a chunk. */
export function chunkLocation(c: { source_path: string; start_line: number; end_line: number }): string {
  return `${c.source_path}:${c.start_line}-${c.end_line}`;
}

export function renderChunk(c: ContextChunk): string {
  const title = c.title_path.length > 0 ? ` · ${c.title_path.join(' > ')}` : '';
  return `<!-- chunk ${c.id} · ${chunkLocation(c)}${title} -->\n${c.text}\n`;
}

function renderChunks(list: readonly ContextChunk[]): string {
  return list.map(renderChunk).join('\n');
}

export function getChunksWithinBudget(ctx: SegmentContext, ids: string[], budget?: number): BudgetedChunks {
  const found = ids.map((id) => ({ id, chunk: ctx.getContext(id) }));
  const missing = found.filter((f) => !f.chunk).map((f) => f.id);
  if (missing.length > 0) {
    throw new StrataError(
      'NOT_FOUND',
      `no chunk with id ${missing.join(', ')} in segment ${ctx.paths.name} (find ids with \`strata pack search\`)`,
    );
  }
  const chunks = found.map((f) => f.chunk as ContextChunk);
  let included: ContextChunk[] = chunks;
  if (budget !== undefined) {
    included = [];
    for (const c of chunks) {
      const text = renderChunks([...included, c]);
      if (!fitsWithoutCounting(text, budget) && countTokens(text) > budget) break;
      included.push(c);
    }
  }
  const printed = renderChunks(included);
  return {
    segment: ctx.paths.name,
    budget: budget ?? null,
    usedTokens: included.length > 0 ? countTokens(printed) : 0,
    included: included.map((c) => ({ ...c, tokens: countTokens(c.text) })),
    omitted: chunks.slice(included.length).map((c) => c.id),
    printed,
  };
}
