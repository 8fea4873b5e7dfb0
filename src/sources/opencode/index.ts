// Owns the OpenCode source adapter: `opencode.db` read-only with per-session change detection
// (partial re-parse), or the legacy storage/ JSON tree; Markdown exports are reported as not sessions.
import type { FileAdapter } from '../types.js';
import { opencodeFingerprint, parseOpenCodeSource } from './parser.js';
import { detectOpenCodeFile, discoverOpenCodeSources, explainOpenCodeFile, opencodeDefaultRoots } from './paths.js';

export const opencodeAdapter: FileAdapter = {
  agent: 'opencode',
  displayName: 'OpenCode',
  locations: '`$XDG_DATA_HOME/opencode` or `~/.local/share/opencode`',
  formats: ['`opencode.db` (SQLite, read without leaving files beside it)', 'legacy `storage/` JSON tree'],
  format: 'file',
  defaultRoots: opencodeDefaultRoots,
  detect: detectOpenCodeFile,
  discover: discoverOpenCodeSources,
  parseFile: parseOpenCodeSource,
  fingerprint: opencodeFingerprint,
  explain: explainOpenCodeFile,
};
