// Owns the GitHub Copilot CLI source adapter: event logs (`session-state/<id>/events.jsonl` and the
// earlier flat `<id>.jsonl`) read incrementally, and the oldest `history-session-state` JSON files.
import type { LineAdapter } from '../types.js';
import { parseCopilotLines } from './parser.js';
import { copilotDefaultRoots, detectCopilotFile, discoverCopilotSessions, explainCopilotFile } from './paths.js';

export const copilotCliAdapter: LineAdapter = {
  agent: 'copilot-cli',
  displayName: 'GitHub Copilot CLI',
  locations: '`$COPILOT_HOME`, `$XDG_CONFIG_HOME/.copilot` or `~/.copilot`',
  formats: [
    '`session-state/<id>/events.jsonl` + `workspace.yaml` (2026)',
    '`session-state/<id>.jsonl` (2025)',
    '`history-session-state/session_<id>_<ms>.json` (2025)',
  ],
  format: 'lines',
  defaultRoots: copilotDefaultRoots,
  detect: detectCopilotFile,
  discover: discoverCopilotSessions,
  parseLines: parseCopilotLines,
  explain: explainCopilotFile,
};
