// Owns the `gemini-cli` provider: runs `gemini -p '' --output-format json` with the prompt on stdin (the
// `-p` text is appended to stdin, so it stays empty), using the user's own Gemini CLI login. The sub-call
// runs with STRATA_SUBCALL=1 in its own working folder; the chat Gemini records for it is removed after.
import type { LlmProvider, RawReply } from '../types.js';
import {
  type AgentCliOptions,
  createAgentCliProvider,
  modelArgs,
  processFailure,
  promptWithSystem,
  reportedFailure,
} from './agent-cli.js';
import { firstLine } from './cli-process.js';
import { removeGeminiSubcallChat } from './gemini-chats.js';

/**
 * `model`: `default` leaves the choice (and its routing) to Gemini CLI. `cwd`: trusted for this run only
 * (--skip-trust), so it must be strata's own empty folder, never a project's (whose settings, hooks and
 * GEMINI.md would load).
 */
export type GeminiCliProviderOptions = AgentCliOptions;

export function geminiCliArgs(options: GeminiCliProviderOptions): string[] {
  const args = ['-p', '', '--output-format', 'json', '--skip-trust', ...modelArgs(options.model)];
  return [...args, ...(options.extraArgs ?? [])];
}

export function createGeminiCliProvider(options: GeminiCliProviderOptions): LlmProvider {
  const env = options.env ?? process.env;
  return createAgentCliProvider(options, {
    provider: 'gemini-cli',
    defaultCommand: 'gemini',
    installHint: 'install Gemini CLI (npm install -g @google/gemini-cli) or set llm.geminiPath in config.json',
    args: () => geminiCliArgs(options),
    input: promptWithSystem,
    read: (result) => {
      const output = parseOutput(result.stdout) ?? parseOutput(result.stderr);
      if (options.cwd && typeof output?.session_id === 'string')
        removeGeminiSubcallChat(env, options.cwd, output.session_id);
      return readGeminiOutput(result.code, output, result.stdout, result.stderr);
    },
  });
}

interface ModelStats {
  tokens?: { prompt?: number; candidates?: number; thoughts?: number };
  roles?: Record<string, unknown>;
}

export interface GeminiOutput {
  session_id?: string;
  response?: string;
  error?: { type?: string; message?: string; code?: number | string };
  stats?: { models?: Record<string, ModelStats> };
}

function errorText(output: GeminiOutput): string {
  return `${output.error?.type ?? ''} ${output.error?.message ?? ''}`;
}

/** Gemini's start-up chatter, never the reason for a failure. */
const NOISE = /^(?:warning\b|\[startup\]|ripgrep is not available|loaded cached|at\s|full report available)/i;

/** Why Gemini failed, from stderr: the API error of its last attempt, else the first line that names an error. */
export function stderrReason(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => firstLine(line))
    .filter((line) => line !== '' && !NOISE.test(line));
  for (const line of lines) {
    const attempt = /^Attempt \d+ failed: (.+?)(?:\.? Max attempts reached\.?)?$/.exec(line);
    if (attempt) return attempt[1]!;
  }
  return lines.find((line) => /error/i.test(line)) ?? lines[0] ?? '';
}

/** The JSON object Gemini printed (after any warning lines before it), or undefined. */
function parseOutput(text: string): GeminiOutput | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(text.slice(start)) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as GeminiOutput) : undefined;
  } catch {
    return undefined;
  }
}

export function readGeminiOutput(
  code: number | null,
  output: GeminiOutput | undefined,
  stdout: string,
  stderr: string,
): RawReply {
  // An empty answer is Gemini's INVALID_STREAM error: reported as the contract's empty reply.
  const empty = output?.error && output.response === '' && /INVALID_STREAM|empty response/i.test(errorText(output));
  if (output?.error && !empty)
    throw reportedFailure('gemini-cli', output.error.message ?? '', { code, errorCode: output.error.code });
  if (!output || (code !== 0 && !empty))
    throw processFailure('gemini-cli', { code, stdout, stderr }, 'JSON result', stderrReason(stderr));
  const models = Object.entries(output.stats?.models ?? {});
  let inputTokens = 0;
  let outputTokens = 0;
  for (const [, stats] of models) {
    inputTokens += stats.tokens?.prompt ?? 0;
    outputTokens += (stats.tokens?.candidates ?? 0) + (stats.tokens?.thoughts ?? 0);
  }
  const main = models.find(([, stats]) => stats.roles && 'main' in stats.roles)?.[0] ?? models[0]?.[0];
  return {
    text: typeof output.response === 'string' ? output.response : '',
    usage: { inputTokens, outputTokens },
    ...(main ? { model: main } : {}),
  };
}
