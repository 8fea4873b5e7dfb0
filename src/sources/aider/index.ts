// Owns the Aider source adapter: `.aider.chat.history.md` → sessions (one per "aider chat started at"
// header) keyed `<sha1(abs path) first 12>:<start time>`; `.aider.input.history` → notSession.
import { readFileSync } from 'node:fs';
import type { FileAdapter } from '../types.js';
import { parseAiderHistory } from './parser.js';
import { aiderDefaultRoots, detectAiderFile, discoverAiderHistories } from './paths.js';

export const aiderAdapter: FileAdapter = {
  agent: 'aider',
  displayName: 'Aider',
  format: 'file',
  defaultRoots: aiderDefaultRoots,
  detect: detectAiderFile,
  discover: discoverAiderHistories,
  parseFile: (ctx) => parseAiderHistory(readFileSync(ctx.path, 'utf8'), ctx.path),
};
