// Owns the GitHub Copilot CLI source adapter: event logs (`session-state/<id>/events.jsonl` and the
// earlier flat `<id>.jsonl`) read incrementally, and the oldest `history-session-state` JSON files.
import type { LineAdapter } from '../types.js';
import { parseCopilotLines } from './parser.js';
import { copilotDefaultRoots, detectCopilotFile, discoverCopilotSessions, explainCopilotFile } from './paths.js';

export const copilotCliAdapter: LineAdapter = {
  agent: 'copilot-cli',
  displayName: 'GitHub Copilot CLI',
  format: 'lines',
  defaultRoots: copilotDefaultRoots,
  detect: detectCopilotFile,
  discover: discoverCopilotSessions,
  parseLines: parseCopilotLines,
  explain: explainCopilotFile,
};
