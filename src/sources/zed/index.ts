// Owns the Zed source adapter: agent threads in `threads/threads.db` (zstd-compressed JSON), read
// read-only without leaving files beside it.
import { fileFingerprint } from '../sqlite-snapshot.js';
import type { FileAdapter } from '../types.js';
import { parseZedDb } from './parser.js';
import { detectZedDb, discoverZedDbs, zedDefaultRoots } from './paths.js';

export const zedAdapter: FileAdapter = {
  agent: 'zed',
  displayName: 'Zed',
  locations:
    '`threads/` in `$XDG_DATA_HOME/zed` or `~/.local/share/zed` (Linux), ' +
    '`~/Library/Application Support/Zed` (macOS), `%LOCALAPPDATA%\\Zed` (Windows)',
  formats: ['`threads/threads.db` (SQLite `threads`, each thread zstd-compressed JSON, format 0.3)'],
  format: 'file',
  defaultRoots: (env) => zedDefaultRoots(env),
  detect: detectZedDb,
  discover: discoverZedDbs,
  parseFile: (ctx) => parseZedDb(ctx.path),
  // Zed writes through a WAL: the `-wal` file changes while the database's own size and time do not.
  fingerprint: (ctx) => fileFingerprint(ctx.path),
};
