// Owns the Cline source adapter, which also reads its forks Roo Code and Kilo Code (same task files, three
// extension folders): one session per task, its product kept in the session's meta.
import type { FileAdapter } from '../types.js';
import { parseClineTask } from './parser.js';
import { clineDefaultRoots, detectClineFile, discoverClineTasks, explainClineFile } from './paths.js';

export const clineAdapter: FileAdapter = {
  agent: 'cline',
  displayName: 'Cline / Roo Code / Kilo Code',
  locations:
    "each editor's `globalStorage/<extension>/` (VS Code, Insiders, VSCodium, Cursor, Windsurf, remote servers) " +
    'and `$CLINE_DIR/data` (default `~/.cline`)',
  formats: [
    '`tasks/<id>/api_conversation_history.json`',
    '`ui_messages.json` (times)',
    '`task_metadata.json` (models)',
  ],
  format: 'file',
  defaultRoots: (env) => clineDefaultRoots(env),
  detect: detectClineFile,
  discover: discoverClineTasks,
  parseFile: (ctx) => parseClineTask(ctx.path),
  explain: explainClineFile,
};
