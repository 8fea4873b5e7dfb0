// Owns the `claude-cli` provider: runs `claude -p --output-format json` with the prompt on stdin, using
// the user's Claude Code login. The child gets STRATA_SUBCALL=1 (hooks it starts cannot re-enter
// strata), `--no-session-persistence` (the sub-call is not saved as a user session) and `--max-turns 1`.
import { spawn as nodeSpawn } from 'node:child_process';
import type { LlmCallContext, LlmProvider, LlmReply, LlmRequest, RawReply } from '../types.js';
import { LlmProviderError } from '../errors.js';
import { subcallEnv } from '../reentrancy.js';
import { finishReply } from './finish-reply.js';

export interface ClaudeCliProviderOptions {
  model: string;
  /** Executable to run (default `claude`, found on PATH). */
  command?: string;
  /** Extra arguments appended after strata's own. */
  extraArgs?: string[];
  /** Pass --no-session-persistence (default true; turn off for claude versions that reject it). */
  noSessionPersistence?: boolean;
  env?: Record<string, string | undefined>;
  cwd?: string;
  spawn?: typeof nodeSpawn;
}

function claudeCliArgs(options: ClaudeCliProviderOptions, request: LlmRequest): string[] {
  const args = ['-p', '--output-format', 'json', '--max-turns', '1'];
  if (options.noSessionPersistence !== false) args.push('--no-session-persistence');
  if (options.model && options.model !== 'default') args.push('--model', options.model);
  if (request.system) args.push('--system-prompt', request.system);
  return [...args, ...(options.extraArgs ?? [])];
}

interface ClaudeResult {
  type?: string;
  is_error?: boolean;
  result?: string;
  total_cost_usd?: number;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    cache_read_input_tokens?: number;
    cache_creation_input_tokens?: number;
  };
}

export function createClaudeCliProvider(options: ClaudeCliProviderOptions): LlmProvider {
  const command = options.command ?? 'claude';
  const spawn = options.spawn ?? nodeSpawn;
  const run = (request: LlmRequest, context: LlmCallContext): Promise<RawReply> =>
    new Promise((resolve, reject) => {
      const child = spawn(command, claudeCliArgs(options, request), {
        env: subcallEnv(options.env ?? process.env),
        cwd: options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let settled = false;
      const finish = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        context.signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const kill = (): void => {
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 2000).unref();
      };
      const onAbort = (): void => {
        kill();
        finish(() => reject(new LlmProviderError('timeout', 'claude-cli: call aborted')));
      };
      const timer = setTimeout(() => {
        kill();
        finish(() => reject(new LlmProviderError('timeout', `claude-cli: no answer within ${context.timeoutMs} ms`)));
      }, context.timeoutMs);
      context.signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', (error: NodeJS.ErrnoException) =>
        finish(() =>
          reject(
            error.code === 'ENOENT'
              ? new LlmProviderError(
                  'process',
                  `claude-cli: \`${command}\` not found on PATH; install Claude Code or set llm.claudePath in ` +
                    `config.json`,
                  { cause: error },
                )
              : new LlmProviderError('process', `claude-cli: cannot start \`${command}\`: ${error.message}`, {
                  cause: error,
                }),
          ),
        ),
      );
      child.on('close', (code) => finish(() => settle(code, stdout, stderr, resolve, reject)));
      child.stdin?.on('error', () => {}); // the child may exit before reading stdin; `close` reports it
      child.stdin?.end(request.prompt);
    });
  return {
    name: 'claude-cli',
    model: options.model,
    networked: true,
    async complete<T>(request: LlmRequest<T>, context: LlmCallContext): Promise<LlmReply<T>> {
      return finishReply('claude-cli', options.model, request, await run(request, context));
    },
  };
}

function settle(
  code: number | null,
  stdout: string,
  stderr: string,
  resolve: (r: RawReply) => void,
  reject: (e: Error) => void,
): void {
  let parsed: ClaudeResult | undefined;
  try {
    parsed = JSON.parse(stdout.trim()) as ClaudeResult;
  } catch {
    parsed = undefined;
  }
  const firstLine = (s: string): string => s.trim().split('\n')[0]?.slice(0, 200) ?? '';
  if (!parsed || typeof parsed !== 'object') {
    const why =
      code !== 0
        ? `exited with code ${code}${stderr.trim() ? `: ${firstLine(stderr)}` : ''}`
        : `printed no JSON result (${firstLine(stdout) || 'empty output'})`;
    reject(new LlmProviderError('process', `claude-cli: ${why}`));
    return;
  }
  if (parsed.is_error) {
    const text = firstLine(parsed.result ?? stderr) || 'unknown error';
    const kind = /rate.?limit|\b429\b/i.test(text)
      ? 'rate_limit'
      : /overloaded|\b5\d\d\b|timed? ?out/i.test(text)
        ? 'server'
        : 'process';
    reject(new LlmProviderError(kind, `claude-cli: ${text}`));
    return;
  }
  const usage = parsed.usage ?? {};
  resolve({
    text: typeof parsed.result === 'string' ? parsed.result : '',
    usage: {
      inputTokens:
        (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
      outputTokens: usage.output_tokens ?? 0,
    },
    ...(typeof parsed.total_cost_usd === 'number' ? { reportedCostUsd: parsed.total_cost_usd } : {}),
  });
}
