// Owns running an agent CLI as a sub-call: the prompt on stdin (never argv or a shell), STRATA_SUBCALL=1
// in the child's environment, a per-call timeout and abort that end the child, and one-line errors for a
// missing executable or a failure to start. A call given up is reported once its child has exited.
import { spawn as nodeSpawn } from 'node:child_process';
import { LlmProviderError } from '../errors.js';
import { subcallEnv } from '../reentrancy.js';
import type { LlmCallContext, ProviderName } from '../types.js';

export interface CliProcessSpec {
  provider: ProviderName;
  command: string;
  args: string[];
  /** Written to the child's stdin, then stdin is closed. */
  input: string;
  env: Record<string, string | undefined>;
  cwd?: string | undefined;
  /** How to get the executable, named in the "not found" error (e.g. `install Codex or set llm.codexPath`). */
  installHint: string;
  spawn?: typeof nodeSpawn | undefined;
}

export interface CliProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCliProcess(spec: CliProcessSpec, context: LlmCallContext): Promise<CliProcessResult> {
  const { provider, command } = spec;
  const spawn = spec.spawn ?? nodeSpawn;
  return new Promise((resolve, reject) => {
    const child = spawn(command, spec.args, {
      env: subcallEnv(spec.env),
      cwd: spec.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let settled = false;
    /** Set once the call is given up: reported when the child has exited, so none outlives its call. */
    let stopped: LlmProviderError | undefined;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      context.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const stop = (error: LlmProviderError): void => {
      if (stopped || settled) return;
      stopped = error;
      clearTimeout(timer);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 2000).unref();
      // A child that ignores even SIGKILL's exit (stuck in the kernel) no longer holds the call.
      setTimeout(() => finish(() => reject(error)), 5000).unref();
    };
    const onAbort = (): void => stop(new LlmProviderError('timeout', `${provider}: call aborted`));
    const timer = setTimeout(
      () => stop(new LlmProviderError('timeout', `${provider}: no answer within ${context.timeoutMs} ms`)),
      context.timeoutMs,
    );
    context.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish(() =>
        reject(
          error.code === 'ENOENT'
            ? new LlmProviderError('process', `${provider}: \`${command}\` not found on PATH; ${spec.installHint}`, {
                cause: error,
              })
            : new LlmProviderError('process', `${provider}: cannot start \`${command}\`: ${error.message}`, {
                cause: error,
              }),
        ),
      ),
    );
    // `exit`, not only `close`: a grandchild holding the pipes open must not keep a stopped call waiting.
    child.on('exit', () => {
      if (stopped) finish(() => reject(stopped));
    });
    child.on('close', (code) => finish(() => (stopped ? reject(stopped) : resolve({ code, stdout, stderr }))));
    child.stdin?.on('error', () => {}); // the child may exit before reading stdin; `close` reports it
    child.stdin?.end(spec.input);
  });
}

/** The first meaningful line of a CLI's error output, without colour codes, for a one-line message. */
export function firstLine(text: string): string {
  const lines = text
    .replace(/\x1b\[[0-9;]*m/g, '') // ANSI colour codes
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^warning\b/i.test(line));
  return (lines[0] ?? '').slice(0, 200);
}

/** Classifies a CLI's error text: rate limits and server errors are retryable, anything else is not. */
export function errorKind(text: string): 'rate_limit' | 'server' | 'auth' | 'process' {
  if (/rate.?limit|\b429\b|too many requests|resource.?exhausted|quota/i.test(text)) return 'rate_limit';
  if (/overloaded|\b5\d\d\b|internal server error|unavailable|high demand|temporar|timed? ?out/i.test(text))
    return 'server';
  if (/\b401\b|\b403\b|unauthori[sz]ed|not logged in|log ?in|auth/i.test(text)) return 'auth';
  return 'process';
}
