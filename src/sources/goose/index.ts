// Owns the Goose source adapter: `sessions/sessions.db` (read read-only, without leaving files beside it) and
// the older `sessions/<id>.jsonl` files Goose wrote before it.
import { fileFingerprint } from '../sqlite-snapshot.js';
import type { FileAdapter } from '../types.js';
import { parseGooseFile } from './parser.js';
import { detectGoose, discoverGooseSessions, gooseDefaultRoots } from './paths.js';

export const gooseAdapter: FileAdapter = {
  agent: 'goose',
  displayName: 'Goose',
  locations:
    '`$GOOSE_PATH_ROOT/data/sessions`, `$XDG_DATA_HOME/goose/sessions` or `~/.local/share/goose/sessions` ' +
    '(Linux and macOS), `%APPDATA%\\Block\\goose\\data\\sessions` (Windows)',
  formats: [
    '`sessions.db` (SQLite `sessions` and `messages` with JSON `content_json`)',
    '`<session id>.jsonl` (before `sessions.db`)',
  ],
  format: 'file',
  defaultRoots: (env) => gooseDefaultRoots(env),
  detect: detectGoose,
  discover: discoverGooseSessions,
  parseFile: parseGooseFile,
  // A database written through a WAL changes in `-wal` while its own size and time do not.
  fingerprint: (ctx) => fileFingerprint(ctx.path),
};
