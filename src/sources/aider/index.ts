// Owns the Aider source adapter: `.aider.chat.history.md` → sessions (one per "aider chat started at"
// header) keyed `<sha1(abs path) first 12>:<start time>`; `.aider.input.history` → notSession.
import { readFileSync } from 'node:fs';
import type { FileAdapter } from '../types.js';
import { parseAiderHistory } from './parser.js';
import { aiderDefaultRoots, detectAiderFile, discoverAiderHistories } from './paths.js';

export const aiderAdapter: FileAdapter = {
  agent: 'aider',
  displayName: 'Aider',
  locations: '`.aider.chat.history.md` in folders listed in `STRATA_AIDER_PATHS` or passed to `ingest`',
  formats: ['`.aider.chat.history.md` (Markdown)'],
  format: 'file',
  defaultRoots: aiderDefaultRoots,
  detect: detectAiderFile,
  discover: discoverAiderHistories,
  parseFile: (ctx) => parseAiderHistory(readFileSync(ctx.path, 'utf8'), ctx.path),
};
