// Owns where hook failures are recorded: one line each on stderr and appended to <data dir>/hooks.log,
// since a client shows a hook's stderr only in verbose modes.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, type Env } from '../shared/paths.js';

function hookLogPath(env: Env): string {
  return join(dataDir(env), 'hooks.log');
}

// C0 and C1 controls (ESC, BEL, newline, ...) and the Unicode line separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** `text` with every control character written as an escape (`\n`, `\u001b`): one inert line. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Logs one line; payload text in it (a path with ESC, a newline) can neither forge a line nor drive a terminal. */
export function logHookLine(env: Env, stderr: NodeJS.WritableStream, raw: string): void {
  stderr.write(`strata: ${escapeControls(raw)}\n`);
  appendHookLog(env, raw);
}

/** Appends one line to hooks.log only (the caller reports it on stderr its own way). */
export function appendHookLog(env: Env, raw: string): void {
  try {
    mkdirSync(dataDir(env), { recursive: true });
    appendFileSync(hookLogPath(env), `${new Date().toISOString()} ${escapeControls(raw)}\n`);
  } catch {
    // The log is a courtesy: a hook never fails because its log cannot be written.
  }
}
