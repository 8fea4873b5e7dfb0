// Owns the `codex-cli` provider: runs `codex exec --json --ephemeral` with the prompt on stdin, using the
// user's own Codex login and config (model provider included). The sub-call is not saved as a session
// (--ephemeral), cannot write files (--sandbox read-only) and runs with STRATA_SUBCALL=1.
import type { LlmProvider, RawReply } from '../types.js';
import {
  type AgentCliOptions,
  createAgentCliProvider,
  modelArgs,
  processFailure,
  promptWithSystem,
  reportedFailure,
} from './agent-cli.js';

/** `cwd`: an empty folder keeps a project's AGENTS.md out of the prompt; `extraArgs` go before the `-`. */
export type CodexCliProviderOptions = AgentCliOptions;

export function codexCliArgs(options: CodexCliProviderOptions): string[] {
  const args = ['exec', '--json', '--ephemeral', '--skip-git-repo-check', '--sandbox', 'read-only'];
  args.push('--color', 'never', ...modelArgs(options.model));
  // `-` reads the whole prompt from stdin: nothing of it reaches argv.
  return [...args, ...(options.extraArgs ?? []), '-'];
}

export function createCodexCliProvider(options: CodexCliProviderOptions): LlmProvider {
  return createAgentCliProvider(options, {
    provider: 'codex-cli',
    defaultCommand: 'codex',
    installHint: 'install Codex (npm install -g @openai/codex) or set llm.codexPath in config.json',
    args: () => codexCliArgs(options),
    // `codex exec` has no separate system input.
    input: promptWithSystem,
    read: ({ code, stdout, stderr }) => readCodexEvents(code, stdout, stderr),
  });
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
  if (failure !== undefined && text === undefined) throw reportedFailure('codex-cli', failure);
  if (code !== 0 || events === 0) throw processFailure('codex-cli', { code, stdout, stderr }, 'JSON events');
  return { text: text ?? '', usage };
}
