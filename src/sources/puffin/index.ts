// Owns the Puffin source adapter: `.puffin/history.json` → one session per thread (root prompt and its
// descendants), prompt/response pairs as messages keyed `<promptId>:p` / `<promptId>:r`.
import type { FileAdapter } from '../types.js';
import { parsePuffinFile, streamPuffinFile } from './parser.js';
import { detectPuffinHistory, discoverPuffinHistories, puffinDefaultRoots } from './paths.js';

export const puffinAdapter: FileAdapter = {
  agent: 'puffin',
  displayName: 'Puffin',
  locations: '`.puffin/history.json` in folders listed in `STRATA_PUFFIN_PATHS` or passed to `ingest`',
  formats: ['`.puffin/history.json`'],
  format: 'file',
  defaultRoots: puffinDefaultRoots,
  detect: detectPuffinHistory,
  discover: discoverPuffinHistories,
  parseFile: (ctx) => parsePuffinFile(ctx.path),
  streamFile: (ctx, emit) => streamPuffinFile(ctx.path, emit),
};

export {
  walkPuffinPrompts,
  STREAM_THRESHOLD_BYTES,
} from './parser.js';
