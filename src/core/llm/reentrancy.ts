// Owns the re-entrancy guard: sub-calls through the claude CLI run with STRATA_SUBCALL=1 so that hooks
// the child starts cannot run strata's ingest/history-index work again (no runaway hook loops).
import { StrataError } from '../../shared/errors.js';

export const SUBCALL_ENV = 'STRATA_SUBCALL';

export function isSubcall(env: Record<string, string | undefined>): boolean {
  const value = env[SUBCALL_ENV];
  return value !== undefined && value !== '' && value !== '0';
}

/** Throws when running inside a strata LLM sub-call. The CLI entry calls it before ingest/index work. */
export function assertNotReentrant(env: Record<string, string | undefined>, command = 'this command'): void {
  if (isSubcall(env)) {
    throw new StrataError(
      'USAGE',
      `refusing to run ${command} inside a strata LLM sub-call (${SUBCALL_ENV}=${env[SUBCALL_ENV]}); this prevents ` +
        `hooks from re-triggering strata`,
    );
  }
}

/** The environment for a sub-call child: the parent's plus the guard variable. */
export function subcallEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  out[SUBCALL_ENV] = '1';
  return out;
}
