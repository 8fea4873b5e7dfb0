// Owns dispatching one OpenCode source to its reader: the SQLite database, a legacy session info file,
// or anything else (such as a Markdown export of a session) reported as not a session.
import { basename } from 'node:path';
import { emptyParseOutput, type ParseOutput } from '../../shared/model.js';
import type { ParseContext } from '../types.js';
import { legacySessionFingerprint, parseLegacySession } from './legacy-reader.js';
import { DB_FILE, isLegacySessionPath } from './paths.js';
import { opencodeDbFingerprint, parseOpenCodeDb } from './sqlite-reader.js';

const MARKDOWN_EXPORT_REASON =
  "Markdown export of an OpenCode session, not OpenCode's own storage (opencode.db or storage/ JSON)";

function isDatabase(path: string): boolean {
  return DB_FILE.test(basename(path)) || path.endsWith('.db');
}

export function parseOpenCodeSource(ctx: ParseContext): ParseOutput {
  if (isDatabase(ctx.path)) return parseOpenCodeDb(ctx.path, ctx.previousState);
  if (isLegacySessionPath(ctx.path)) return parseLegacySession(ctx.path);
  const reason = ctx.path.endsWith('.md') ? MARKDOWN_EXPORT_REASON : 'not an OpenCode database or storage/session file';
  return { ...emptyParseOutput(), notSession: reason };
}

export function opencodeFingerprint(ctx: ParseContext): string | undefined {
  if (isDatabase(ctx.path)) return opencodeDbFingerprint(ctx.path);
  if (isLegacySessionPath(ctx.path)) return legacySessionFingerprint(ctx.path);
  return undefined;
}
