// Owns the Codex CLI source adapter: a LineAdapter over $CODEX_HOME rollouts (all three generations) and the
// history.jsonl prompt log (reported as not a session).
import { basename } from 'node:path';
import type { LineAdapter } from '../types.js';
import { parseCodexLines } from './parser.js';
import { codexDefaultRoots, discoverCodexFiles, isHistoryFileName, isRolloutFileName } from './paths.js';

export const codexAdapter: LineAdapter = {
  agent: 'codex',
  displayName: 'Codex CLI',
  locations: '`$CODEX_HOME` (default `~/.codex`): `sessions/`, `archived_sessions/`',
  formats: [
    '`rollout-*.jsonl` (`{timestamp, type, payload}`)',
    'header + items JSONL',
    '`{session, items}` JSON',
    'forks and subagent threads linked',
  ],
  format: 'lines',
  defaultRoots: codexDefaultRoots,
  detect(path, head) {
    const name = basename(path);
    if (isRolloutFileName(name)) {
      return (
        /"session_meta"|"record_type"|"response_item"|"instructions"|"session"\s*:|"items"\s*:/.test(head) ||
        head.trim() === ''
      );
    }
    // Codex's prompt log; Claude Code's history.jsonl has `display`/`sessionId` instead.
    return isHistoryFileName(name) && /"session_id"/.test(head) && /"ts"/.test(head);
  },
  discover: discoverCodexFiles,
  parseLines: parseCodexLines,
};
