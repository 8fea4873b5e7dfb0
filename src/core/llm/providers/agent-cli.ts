// Owns what the agent-CLI providers (claude-cli, codex-cli, gemini-cli) share: their options, the
// `--model` argument (left to the client's own choice for `default`), one call as a child process through
// runCliProcess then finishReply, and the one-line error of a child that failed or printed nothing readable.
import type { spawn as nodeSpawn } from 'node:child_process';
import { LlmProviderError } from '../errors.js';
import type { LlmCallContext, LlmProvider, LlmReply, LlmRequest, ProviderName, RawReply } from '../types.js';
import { type CliProcessResult, errorKind, firstLine, runCliProcess } from './cli-process.js';
import { finishReply } from './finish-reply.js';

export interface AgentCliOptions {
  /** Model id passed as `--model`; `default` leaves the choice to the client's own config. */
  model: string;
  /** Executable to run (default: the client's usual name, found on PATH). */
  command?: string | undefined;
  /** Extra arguments placed after strata's own. */
  extraArgs?: string[] | undefined;
  env?: Record<string, string | undefined>;
  /** Working folder of the sub-call. */
  cwd?: string | undefined;
  spawn?: typeof nodeSpawn;
}

export interface AgentCliSpec {
  provider: ProviderName;
  /** The executable's usual name, run when `command` is not set. */
  defaultCommand: string;
  /** How to get the executable, named in the "not found" error. */
  installHint: string;
  args(request: LlmRequest): string[];
  /** The text written to the child's stdin (default: the prompt). */
  input?(request: LlmRequest): string;
  /** Reads the finished child's output into the reply, or throws its one-line error. */
  read(result: CliProcessResult): RawReply;
}

/** `--model <id>`, or nothing for `default` (or no model). */
export function modelArgs(model: string): string[] {
  return model && model !== 'default' ? ['--model', model] : [];
}

/** The system text first, then the prompt: for clients with no separate system input. */
export function promptWithSystem(request: LlmRequest): string {
  return request.system ? `${request.system}\n\n${request.prompt}` : request.prompt;
}

export function createAgentCliProvider(options: AgentCliOptions, spec: AgentCliSpec): LlmProvider {
  const { provider } = spec;
  return {
    name: provider,
    model: options.model,
    networked: true,
    async complete<T>(request: LlmRequest<T>, context: LlmCallContext): Promise<LlmReply<T>> {
      const result = await runCliProcess(
        {
          provider,
          command: options.command ?? spec.defaultCommand,
          args: spec.args(request),
          input: spec.input ? spec.input(request) : request.prompt,
          env: options.env ?? process.env,
          cwd: options.cwd,
          installHint: spec.installHint,
          spawn: options.spawn,
        },
        context,
      );
      return finishReply(provider, options.model, request, spec.read(result));
    },
  };
}

/**
 * The error of a child that exited non-zero (`reason`: why, from its stderr) or exited 0 printing no
 * `expected` output: one line, retryable when its text names a rate limit or a server failure.
 */
export function processFailure(
  provider: ProviderName,
  result: CliProcessResult,
  expected: string,
  reason = firstLine(result.stderr),
): LlmProviderError {
  const { code, stdout } = result;
  const why =
    code !== 0
      ? `exited with code ${code}${reason ? `: ${reason}` : ''}`
      : `printed no ${expected} (${firstLine(stdout) || 'empty output'})`;
  return new LlmProviderError(code !== 0 ? errorKind(why) : 'process', `${provider}: ${why}`);
}

/**
 * The error a client reported itself (`text`: its error message), one line, classified by the message and
 * the client's own error code; the exit code is named when the child exited non-zero.
 */
export function reportedFailure(
  provider: ProviderName,
  text: string,
  exit?: { code: number | null; errorCode?: string | number | undefined },
): LlmProviderError {
  const message = firstLine(text) || 'unknown error';
  const line = `${message}${exit?.code ? ` (exit ${exit.code})` : ''}`;
  return new LlmProviderError(errorKind(`${message} ${exit?.errorCode ?? ''}`), `${provider}: ${line}`);
}
