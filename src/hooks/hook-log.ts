// Owns where hook failures are recorded: one line each on stderr and appended to <data dir>/hooks.log,
// since a client shows a hook's stderr only in verbose modes.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, type Env } from '../shared/paths.js';

function hookLogPath(env: Env): string {
  return join(dataDir(env), 'hooks.log');
}

export function logHookLine(env: Env, stderr: NodeJS.WritableStream, line: string): void {
  stderr.write(`strata: ${line}\n`);
  try {
    mkdirSync(dataDir(env), { recursive: true });
    appendFileSync(hookLogPath(env), `${new Date().toISOString()} ${line}\n`);
  } catch {
    // The log is a courtesy: a hook never fails because its log cannot be written.
  }
}
