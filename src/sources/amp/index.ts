// Owns the Amp source adapter: thread documents `~/.local/share/amp/threads/T-<uuid>.json`, re-read whole.
import type { FileAdapter } from '../types.js';
import { parseAmpFile } from './parser.js';
import { ampDefaultRoots, detectAmpThread, discoverAmpThreads, explainAmpFile } from './paths.js';

export const ampAdapter: FileAdapter = {
  agent: 'amp',
  displayName: 'Amp',
  locations: '`$XDG_DATA_HOME/amp/threads` or `~/.local/share/amp/threads`',
  formats: ['`T-<uuid>.json` thread documents (title, workspace tree, per-reply usage)'],
  format: 'file',
  defaultRoots: ampDefaultRoots,
  detect: detectAmpThread,
  discover: discoverAmpThreads,
  explain: explainAmpFile,
  parseFile: parseAmpFile,
};
