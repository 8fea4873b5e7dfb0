// Owns the Crush source adapter: each project's `crush.db`, read read-only without leaving files beside it,
// found in project folders and through the `projects.json` of Crush's global data folder.
import { fileFingerprint } from '../sqlite-snapshot.js';
import type { FileAdapter } from '../types.js';
import { parseCrushDb } from './parser.js';
import { crushDefaultRoots, detectCrushDb, discoverCrushDbs } from './paths.js';

export const crushAdapter: FileAdapter = {
  agent: 'crush',
  displayName: 'Crush',
  locations:
    '`.crush/` in project folders passed to `ingest`, and the projects listed in `projects.json` of ' +
    '`$CRUSH_GLOBAL_DATA`, `$XDG_DATA_HOME/crush` or `~/.local/share/crush` (`%LOCALAPPDATA%\\crush` on Windows)',
  formats: ['`.crush/crush.db` (SQLite `sessions` and `messages` with JSON `parts`)'],
  format: 'file',
  defaultRoots: (env) => crushDefaultRoots(env),
  detect: detectCrushDb,
  discover: discoverCrushDbs,
  parseFile: (ctx) => parseCrushDb(ctx.path),
  // Crush writes through a WAL: the `-wal` file changes while the database's own size and time do not.
  fingerprint: (ctx) => fileFingerprint(ctx.path),
};
