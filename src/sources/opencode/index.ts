// Owns the OpenCode source adapter: `opencode.db` read-only with per-session change detection
// (partial re-parse), or the legacy storage/ JSON tree; Markdown exports are reported as not sessions.
import type { FileAdapter } from '../types.js';
import { opencodeFingerprint, parseOpenCodeSource } from './parser.js';
import { detectOpenCodeFile, discoverOpenCodeSources, explainOpenCodeFile, opencodeDefaultRoots } from './paths.js';

export const opencodeAdapter: FileAdapter = {
  agent: 'opencode',
  displayName: 'OpenCode',
  format: 'file',
  defaultRoots: opencodeDefaultRoots,
  detect: detectOpenCodeFile,
  discover: discoverOpenCodeSources,
  parseFile: parseOpenCodeSource,
  fingerprint: opencodeFingerprint,
  explain: explainOpenCodeFile,
};
