// Owns the Cursor source adapter: chats (composers) in the global `state.vscdb` and the older chats of a
// workspace's `state.vscdb`, read read-only without leaving files beside them; only composers changed
// since the last run are re-read.
import { fileFingerprint } from '../sqlite-snapshot.js';
import type { FileAdapter } from '../types.js';
import { parseCursorDb } from './parser.js';
import { cursorDefaultRoots, detectCursorDb, discoverCursorDbs, explainCursorFile } from './paths.js';

export const cursorAdapter: FileAdapter = {
  agent: 'cursor',
  displayName: 'Cursor',
  locations:
    '`Cursor/User` under `~/.config` (Linux, or `$XDG_CONFIG_HOME`), `~/Library/Application Support` (macOS), ' +
    '`%APPDATA%` (Windows)',
  formats: [
    '`globalStorage/state.vscdb` (SQLite `cursorDiskKV`: `composerData:<id>` and `bubbleId:<id>:<bubble>` rows, ' +
      'or inline `conversation`)',
    '`workspaceStorage/<hash>/state.vscdb` + `workspace.json` (the folder of each chat; the chat panel and ' +
      'composers Cursor kept there in 2024)',
  ],
  format: 'file',
  defaultRoots: (env) => cursorDefaultRoots(env),
  detect: detectCursorDb,
  discover: discoverCursorDbs,
  parseFile: (ctx) => parseCursorDb(ctx.path, ctx.previousState),
  // Cursor writes through a WAL: the `-wal` file changes while the database's own size and time do not.
  fingerprint: (ctx) => fileFingerprint(ctx.path),
  explain: explainCursorFile,
};
