// Owns the `code_map` tool: a code map of a folder or file under a root, at the richest detail level
// that fits a token budget (the `strata map render` behaviour).
import { z } from 'zod';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DETAIL_LEVELS, type FileMap } from '../../core/codemap/types.js';
import { resolveConfined } from '../../shared/confined-path.js';
import { defineTool, type ToolContext } from '../tool.js';

export const pathInput = z
  .string()
  .optional()
  .describe('file or folder, relative to the first root or absolute under a root (default: the first root)');

/** Maps the files under a confined path, shown relative to the first root; parses are kept in memory. */
export async function mapConfined(
  ctx: ToolContext,
  path: string | undefined,
): Promise<{ maps: FileMap[]; readSource: (map: FileMap) => string; notes: string[] }> {
  const absolute = resolveConfined(ctx.roots, path ?? '.');
  const cwd = ctx.roots[0]!;
  // Loaded on first use: tree-sitter is not needed to start the server or answer history queries.
  const { createCodeMapper } = await import('../../core/codemap/code-mapper.js');
  const mapper = createCodeMapper({ cache: ctx.parseCache });
  try {
    const maps = await mapper.mapPaths([absolute], cwd);
    return { maps, readSource: (map) => readFileSync(resolve(cwd, map.path), 'utf8'), notes: mapper.notes };
  } finally {
    mapper.close();
  }
}

export const codeMapTool = defineTool({
  name: 'code_map',
  title: 'Map code',
  description:
    'A map of the code under a folder (symbols per file via tree-sitter) that fits a token budget: every file starts ' +
    'at the richest ' +
    'detail and the largest are lowered first. Levels: outline, minimal, compact (signatures), standard (+ doc ' +
    'summaries), full (+ bodies).',
  inputSchema: {
    path: pathInput,
    budget: z.number().int().min(1).default(4000).describe('never more than this many tokens'),
    level: z.enum(DETAIL_LEVELS).optional().describe('force one detail level'),
  },
  outputSchema: {
    budget: z.number().int(),
    tokens: z.number().int().describe('tokens of the map text'),
    level: z.enum(DETAIL_LEVELS).nullable().describe('the lowest level among the files shown'),
    files: z.array(
      z.object({
        path: z.string(),
        level: z.enum(DETAIL_LEVELS),
        tokens: z.number().int(),
        keySymbols: z.number().int().optional().describe('only this many main exports are listed'),
      }),
    ),
    omitted: z.number().int(),
    omittedPaths: z.array(z.string()),
    notes: z.array(z.string()).describe('a folder mapped despite .gitignore, or why a folder gave no file'),
  },
  readsHistory: false,
  async run(args, ctx) {
    const { maps, readSource, notes } = await mapConfined(ctx, args.path);
    const { renderWithinBudget } = await import('../../core/codemap/render-budget.js');
    const result = renderWithinBudget(
      maps,
      { budget: args.budget, ...(args.level ? { level: args.level } : {}) },
      { readSource },
    );
    const files = result.files.map((f) => ({
      path: f.path,
      level: f.level,
      tokens: f.tokens,
      ...(f.keySymbols === undefined ? {} : { keySymbols: f.keySymbols }),
    }));
    return {
      // A map with no file carries the reason in its text too.
      text: maps.length === 0 && notes.length > 0 ? `${result.text}${notes.join('\n')}\n` : result.text,
      structured: {
        budget: result.budget,
        tokens: result.tokens,
        level: result.level,
        files,
        omitted: result.omitted,
        omittedPaths: result.omittedPaths,
        notes,
      },
    };
  },
});
