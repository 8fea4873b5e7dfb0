// Owns the Kimi CLI source adapter: `wire.jsonl` event logs under `~/.kimi/sessions/<work dir md5>/<id>/`.
import type { FileAdapter } from '../types.js';
import { parseKimiFile } from './parser.js';
import { discoverKimiSessions, explainKimiFile, kimiDefaultRoots, WIRE_FILE } from './paths.js';
import { isKimiHead } from './schema.js';

export const kimiAdapter: FileAdapter = {
  agent: 'kimi',
  displayName: 'Kimi CLI',
  locations: '`$KIMI_SHARE_DIR/sessions` or `~/.kimi/sessions`',
  formats: [
    '`<work dir md5>/<session id>/wire.jsonl` (project from `kimi.json`, title from `state.json`)',
    'subagents (`SubagentEvent`)',
  ],
  format: 'file',
  defaultRoots: kimiDefaultRoots,
  detect: (path, head) => path.endsWith(WIRE_FILE) && isKimiHead(head.replace(/^\uFEFF/, '')),
  discover: discoverKimiSessions,
  explain: explainKimiFile,
  parseFile: parseKimiFile,
};
