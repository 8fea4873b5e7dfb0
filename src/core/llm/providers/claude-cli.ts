// Owns the `claude-cli` provider: runs `claude -p --output-format json` with the prompt on stdin, using
// the user's Claude Code login. The child gets STRATA_SUBCALL=1 (hooks it starts cannot re-enter
// strata), `--no-session-persistence` (the sub-call is not saved as a user session) and `--max-turns 1`.
import type { LlmProvider, LlmRequest, RawReply } from '../types.js';
import {
  type AgentCliOptions,
  createAgentCliProvider,
  modelArgs,
  processFailure,
  reportedFailure,
} from './agent-cli.js';
import type { CliProcessResult } from './cli-process.js';

export interface ClaudeCliProviderOptions extends AgentCliOptions {
  /** Pass --no-session-persistence (default true; turn off for claude versions that reject it). */
  noSessionPersistence?: boolean;
}

function claudeCliArgs(options: ClaudeCliProviderOptions, request: LlmRequest): string[] {
  const args = ['-p', '--output-format', 'json', '--max-turns', '1'];
  if (options.noSessionPersistence !== false) args.push('--no-session-persistence');
  args.push(...modelArgs(options.model));
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
  return createAgentCliProvider(options, {
    provider: 'claude-cli',
    defaultCommand: 'claude',
    installHint: 'install Claude Code or set llm.claudePath in config.json',
    args: (request) => claudeCliArgs(options, request),
    read: readClaudeResult,
  });
}

function readClaudeResult(result: CliProcessResult): RawReply {
  let parsed: ClaudeResult | undefined;
  try {
    parsed = JSON.parse(result.stdout.trim()) as ClaudeResult;
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object') throw processFailure('claude-cli', result, 'JSON result');
  if (parsed.is_error) throw reportedFailure('claude-cli', parsed.result ?? result.stderr);
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
