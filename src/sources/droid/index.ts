// Owns the Factory Droid source adapter: transcripts `~/.factory/sessions/<cwd>/<id>.jsonl`, re-read whole.
import type { FileAdapter } from '../types.js';
import { parseDroidFile } from './parser.js';
import { detectDroid, discoverDroidSessions, droidDefaultRoots, explainDroidFile } from './paths.js';

export const droidAdapter: FileAdapter = {
  agent: 'droid',
  displayName: 'Factory Droid',
  locations: '`$FACTORY_HOME_OVERRIDE/.factory/sessions` or `~/.factory/sessions`',
  formats: ['`<cwd>/<session id>.jsonl` (`session_start`, `message`, `compaction_state`); `<id>.settings.json`'],
  format: 'file',
  defaultRoots: droidDefaultRoots,
  detect: detectDroid,
  discover: discoverDroidSessions,
  explain: explainDroidFile,
  parseFile: parseDroidFile,
};
