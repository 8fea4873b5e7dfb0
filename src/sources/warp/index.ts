// Owns the Warp source adapter: the prompts of Warp's agent conversations in `warp.sqlite`, read read-only
// without leaving files beside it. The agent's side is protobuf without a published schema: not read.
import { fileFingerprint } from '../sqlite-snapshot.js';
import type { FileAdapter } from '../types.js';
import { parseWarpDb } from './parser.js';
import { detectWarpDb, discoverWarpDbs, warpDefaultRoots } from './paths.js';

export const warpAdapter: FileAdapter = {
  agent: 'warp',
  displayName: 'Warp',
  locations:
    '`$XDG_STATE_HOME/warp-terminal` or `~/.local/state/warp-terminal` (Linux), `dev.warp.Warp-Stable` in ' +
    "Warp's group container (macOS), `%LOCALAPPDATA%\\warp\\Warp\\data` (Windows)",
  formats: [
    '`warp.sqlite`: prompts of agent conversations (`ai_queries`), with usage from `agent_conversations`',
    'not read: the agent’s replies and tool calls (`agent_tasks.task`, protobuf without a published schema)',
  ],
  format: 'file',
  defaultRoots: (env) => warpDefaultRoots(env),
  detect: detectWarpDb,
  discover: discoverWarpDbs,
  parseFile: (ctx) => parseWarpDb(ctx.path),
  // Warp writes through a WAL: the `-wal` file changes while the database's own size and time do not.
  fingerprint: (ctx) => fileFingerprint(ctx.path),
};
