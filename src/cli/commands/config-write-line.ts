// Owns the line `strata mcp config --write` and `strata hook install` print about a client file they merged.
import type { ConfigWrite } from '../../core/agent-config/config-file.js';
import { tildify, type Env } from '../../shared/paths.js';

/** One line for stderr: unchanged (`already` says what it holds), or created/updated with its backup. */
export function configWriteLine(result: ConfigWrite, env: Env, already: string): string {
  const where = tildify(result.path, env);
  if (result.status === 'unchanged') return `strata: ${where} ${already}\n`;
  return `strata: ${result.status} ${where}${
    result.backup ? ` (previous file kept as ` + `${tildify(result.backup, env)})` : ''
  }\n`;
}
