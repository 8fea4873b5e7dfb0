// Owns the `code_symbol` tool: the source (or a lower detail level) of named symbols under a root (the
// `strata map view` behaviour).
import { z } from 'zod';
import { DETAIL_LEVELS } from '../../core/codemap/types.js';
import { StrataError } from '../../shared/errors.js';
import { countTokens } from '../../shared/tokenizer.js';
import { defineTool } from '../tool.js';
import { tokensOutput } from '../schemas.js';
import { mapConfined, pathInput } from './code-map.js';

export const codeSymbolTool = defineTool({
  name: 'code_symbol',
  title: 'Show a code symbol',
  description:
    'The source of one or more named symbols (name, Parent.name or Parent::name) found under a folder; level full ' +
    'gives the whole body, ' +
    'compact only the signature.',
  inputSchema: {
    names: z.array(z.string().min(1)).min(1).max(20).describe('symbol names: name, Parent.name or Parent::name'),
    path: pathInput,
    level: z.enum(DETAIL_LEVELS).default('full'),
  },
  outputSchema: {
    level: z.enum(DETAIL_LEVELS),
    found: z.array(z.object({ name: z.string(), path: z.string(), line: z.number().int() })),
    missing: z.array(z.string()),
    tokens: tokensOutput,
  },
  readsHistory: false,
  async run(args, ctx) {
    const { maps, readSource } = await mapConfined(ctx, args.path);
    const { renderView } = await import('../../core/codemap/render-map.js');
    const view = renderView(args.names, args.level, maps, readSource);
    if (view.found.length === 0)
      throw new StrataError(
        'NOT_FOUND',
        `no symbol named ${args.names.join(', ')} (try the code_map tool with level minimal)`,
      );
    const text = view.text + (view.missing.length > 0 ? `\n[no symbol named ${view.missing.join(', ')}]\n` : '');
    return {
      text,
      structured: { level: args.level, found: view.found, missing: view.missing, tokens: countTokens(text) },
    };
  },
});
