// Owns the `codex-cli` provider: runs `codex exec --json --ephemeral` with the prompt on stdin, using the
// user's own Codex login and config (model provider included). The sub-call is not saved as a session
// (--ephemeral), cannot write files (--sandbox read-only) and runs with STRATA_SUBCALL=1.
import type { spawn as nodeSpawn } from 'node:child_process';
import { LlmProviderError } from '../errors.js';
import type { LlmCallContext, LlmProvider, LlmReply, LlmRequest, RawReply } from '../types.js';
import { errorKind, firstLine, runCliProcess } from './cli-process.js';
import { finishReply } from './finish-reply.js';

export interface CodexCliProviderOptions {
  /** Model id passed as `-m`; `default` leaves the choice to Codex's own config. */
  model: string;
  /** Executable to run (default `codex`, found on PATH). */
  command?: string | undefined;
  /** Extra arguments placed before the prompt marker. */
  extraArgs?: string[] | undefined;
  env?: Record<string, string | undefined>;
  /** Working folder of the sub-call (an empty one keeps a project's AGENTS.md out of the prompt). */
  cwd?: string | undefined;
  spawn?: typeof nodeSpawn;
}

export function codexCliArgs(options: CodexCliProviderOptions): string[] {
  const args = ['exec', '--json', '--ephemeral', '--skip-git-repo-check', '--sandbox', 'read-only'];
  args.push('--color', 'never');
  if (options.model && options.model !== 'default') args.push('--model', options.model);
  // `-` reads the whole prompt from stdin: nothing of it reaches argv.
  return [...args, ...(options.extraArgs ?? []), '-'];
}

/** The system text first, then the prompt: `codex exec` has no separate system input. */
export function cliInput(request: LlmRequest): string {
  return request.system ? `${request.system}\n\n${request.prompt}` : request.prompt;
}

export function createCodexCliProvider(options: CodexCliProviderOptions): LlmProvider {
  const command = options.command ?? 'codex';
  const run = async (request: LlmRequest, context: LlmCallContext): Promise<RawReply> => {
    const result = await runCliProcess(
      {
        provider: 'codex-cli',
        command,
        args: codexCliArgs(options),
        input: cliInput(request),
        env: options.env ?? process.env,
        cwd: options.cwd,
        installHint: 'install Codex (npm install -g @openai/codex) or set llm.codexPath in config.json',
        spawn: options.spawn,
      },
      context,
    );
    return readCodexEvents(result.code, result.stdout, result.stderr);
  };
  return {
    name: 'codex-cli',
    model: options.model,
    networked: true,
    async complete<T>(request: LlmRequest<T>, context: LlmCallContext): Promise<LlmReply<T>> {
      return finishReply('codex-cli', options.model, request, await run(request, context));
    },
  };
}

interface CodexEvent {
  type?: string;
  message?: string;
  item?: { type?: string; text?: string; message?: string };
  usage?: { input_tokens?: number; output_tokens?: number };
  error?: { message?: string };
}

/** Reads `codex exec --json` events: the last agent message is the answer, `turn.completed` the usage. */
export function readCodexEvents(code: number | null, stdout: string, stderr: string): RawReply {
  let text: string | undefined;
  let failure: string | undefined;
  let usage = { inputTokens: 0, outputTokens: 0 };
  let events = 0;
  for (const line of stdout.split('\n')) {
    let event: CodexEvent;
    try {
      event = JSON.parse(line) as CodexEvent;
    } catch {
      continue;
    }
    if (!event || typeof event !== 'object') continue;
    events++;
    if (event.type === 'item.completed' && event.item?.type === 'agent_message')
      text = typeof event.item.text === 'string' ? event.item.text : '';
    else if (event.type === 'turn.completed' && event.usage)
      usage = { inputTokens: event.usage.input_tokens ?? 0, outputTokens: event.usage.output_tokens ?? 0 };
    else if (event.type === 'turn.failed') failure = event.error?.message ?? failure;
    else if (event.type === 'error') failure = failure ?? event.message;
  }
  if (failure !== undefined && text === undefined) {
    const line = firstLine(failure) || 'unknown error';
    throw new LlmProviderError(errorKind(line), `codex-cli: ${line}`);
  }
  if (code !== 0 || events === 0) {
    const why =
      code !== 0
        ? `exited with code ${code}${firstLine(stderr) ? `: ${firstLine(stderr)}` : ''}`
        : `printed no JSON events (${firstLine(stdout) || 'empty output'})`;
    throw new LlmProviderError(code !== 0 ? errorKind(why) : 'process', `codex-cli: ${why}`);
  }
  return { text: text ?? '', usage };
}
