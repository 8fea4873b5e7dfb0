// Owns the `claude-cli` provider: runs `claude -p --output-format json` with the prompt on stdin, using
// the user's Claude Code login. The child gets STRATA_SUBCALL=1 (hooks it starts cannot re-enter
// strata), `--no-session-persistence` (the sub-call is not saved as a user session) and `--max-turns 1`.
import type { spawn as nodeSpawn } from 'node:child_process';
import type { LlmCallContext, LlmProvider, LlmReply, LlmRequest, RawReply } from '../types.js';
import { LlmProviderError } from '../errors.js';
import { runCliProcess } from './cli-process.js';
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
  const run = async (request: LlmRequest, context: LlmCallContext): Promise<RawReply> => {
    const result = await runCliProcess(
      {
        provider: 'claude-cli',
        command,
        args: claudeCliArgs(options, request),
        input: request.prompt,
        env: options.env ?? process.env,
        cwd: options.cwd,
        installHint: 'install Claude Code or set llm.claudePath in config.json',
        spawn: options.spawn,
      },
      context,
    );
    return settle(result.code, result.stdout, result.stderr);
  };
  return {
    name: 'claude-cli',
    model: options.model,
    networked: true,
    async complete<T>(request: LlmRequest<T>, context: LlmCallContext): Promise<LlmReply<T>> {
      return finishReply('claude-cli', options.model, request, await run(request, context));
    },
  };
}

function settle(code: number | null, stdout: string, stderr: string): RawReply {
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
    throw new LlmProviderError('process', `claude-cli: ${why}`);
  }
  if (parsed.is_error) {
    const text = firstLine(parsed.result ?? stderr) || 'unknown error';
    const kind = /rate.?limit|\b429\b/i.test(text)
      ? 'rate_limit'
      : /overloaded|\b5\d\d\b|timed? ?out/i.test(text)
        ? 'server'
        : 'process';
    throw new LlmProviderError(kind, `claude-cli: ${text}`);
  }
  const usage = parsed.usage ?? {};
  return {
    text: typeof parsed.result === 'string' ? parsed.result : '',
    usage: {
      inputTokens:
        (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
      outputTokens: usage.output_tokens ?? 0,
    },
    ...(typeof parsed.total_cost_usd === 'number' ? { reportedCostUsd: parsed.total_cost_usd } : {}),
  };
}
