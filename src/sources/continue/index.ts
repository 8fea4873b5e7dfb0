// Owns the Continue source adapter: chat sessions `~/.continue/sessions/<id>.json`, re-read when they change.
import type { FileAdapter } from '../types.js';
import { parseContinueFile } from './parser.js';
import { continueDefaultRoots, discoverContinueSessions, INDEX_FILE, isContinueSession } from './paths.js';

export const continueAdapter: FileAdapter = {
  agent: 'continue',
  displayName: 'Continue',
  locations: '`$CONTINUE_GLOBAL_DIR/sessions` or `~/.continue/sessions`',
  formats: ['`<session id>.json` (`history` of chat messages; times from `sessions.json`)'],
  format: 'file',
  defaultRoots: continueDefaultRoots,
  detect: (path, head) => isContinueSession(path) && /^\s*\{[\s\S]*"(sessionId|history)"\s*:/.test(head),
  discover: discoverContinueSessions,
  explain: (path) =>
    path.endsWith(`/sessions/${INDEX_FILE}`) || path.endsWith(`\\sessions\\${INDEX_FILE}`)
      ? 'Continue session list (titles and creation times): read with the sessions beside it'
      : undefined,
  parseFile: parseContinueFile,
};
