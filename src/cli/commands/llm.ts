// Owns `strata llm check` and the shared LLM options (--provider, --model, --max-calls, --max-cost) that
// commands using sub-calls (history index, logbook) add with addLlmOptions / llmConfigFromOptions.
import type { Command } from 'commander';
import { StrataError } from '../../shared/errors.js';
import {
  checkLlm,
  readLlmConfigFile,
  resolveLlmConfig,
  PROVIDER_NAMES,
  type LlmConfig,
  type LlmFlags,
} from '../../core/llm/index.js';
import { printJson, printLine, type CliIo } from '../io.js';
import { parseNonNegativeInt, parseNonNegativeNumber } from './options.js';

export interface LlmCliOptions {
  provider?: string;
  model?: string;
  baseUrl?: string;
  maxCalls?: string;
  maxCost?: string;
}

/** Adds the LLM options to a command that makes sub-calls. */
export function addLlmOptions(command: Command, options: { budget?: boolean } = { budget: true }): Command {
  command
    .option('--provider <name>', `LLM provider: ${PROVIDER_NAMES.join(', ')} (default extractive: offline, no model)`)
    .option('--model <id>', 'model id for the provider (e.g. claude-haiku-4-5, gpt-4o-mini, llama3.1)')
    .option('--base-url <url>', 'API base URL (OpenAI-compatible local servers: Ollama, llama.cpp, vLLM, LM Studio)');
  if (options.budget !== false) {
    command
      .option('--max-calls <n>', 'stop cleanly after this many LLM calls (partial results are kept)')
      .option('--max-cost <usd>', 'stop cleanly before the estimated LLM spend could pass this many US dollars');
  }
  return command;
}

/** Resolves the LLM configuration: flags > environment > $STRATA_HOME/config.json (key "llm") > defaults. */
export function llmConfigFromOptions(opts: LlmCliOptions, io: CliIo): LlmConfig {
  const flags: LlmFlags = {};
  if (opts.provider) flags.provider = opts.provider;
  if (opts.model) flags.model = opts.model;
  if (opts.baseUrl) flags.baseUrl = opts.baseUrl;
  const maxCalls = opts.maxCalls === undefined ? undefined : parseNonNegativeInt(opts.maxCalls, '--max-calls');
  const maxCost = opts.maxCost === undefined ? undefined : parseNonNegativeNumber(opts.maxCost, '--max-cost');
  if (maxCalls !== undefined) flags.maxCalls = maxCalls;
  if (maxCost !== undefined) flags.maxCost = maxCost;
  return resolveLlmConfig({ flags, env: io.env, configFile: readLlmConfigFile(io.env) });
}

export function registerLlmCommand(program: Command, io: CliIo): void {
  const llm = program.command('llm').description('LLM sub-call providers used by the history index and the logbook');
  llm.addHelpText(
    'after',
    `
Examples:
  strata llm check                                  check the configured provider (default: extractive, offline)
  strata llm check --provider anthropic             check the Anthropic API (needs ANTHROPIC_API_KEY)
Configuration precedence: flags > environment (STRATA_LLM_PROVIDER, STRATA_LLM_MODEL, ANTHROPIC_API_KEY,
OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_BASE_URL) > $STRATA_HOME/config.json key "llm" > defaults.`,
  );
  const check = llm
    .command('check')
    .description('ask the configured provider one tiny question and report whether it answers');
  addLlmOptions(check, { budget: false })
    .option('--json', 'print the result as JSON on stdout')
    .addHelpText(
      'after',
      `
Examples:
  strata llm check                                           offline extractive provider (always answers)
  strata llm check --provider anthropic --model claude-haiku-4-5
  strata llm check --provider openai --base-url http://127.0.0.1:11434/v1 --model llama3.1   (Ollama)
  strata llm check --provider claude-cli --json              through your Claude Code login
  strata llm check --provider codex-cli                      through your Codex login and config
  strata llm check --provider gemini-cli                     through your Gemini CLI login
Exit code 0 when the provider answered, 1 (with a one-line reason) when it did not.`,
    )
    .action(async (opts: LlmCliOptions & { json?: boolean }) => {
      const config = llmConfigFromOptions(opts, io);
      const result = await checkLlm(config, {
        env: io.env,
        cwd: io.cwd,
        onEvent: (e) => {
          if (e.type === 'retry')
            io.stderr.write(`strata: llm check: retrying in ${Math.round(e.delayMs / 100) / 10} s (${e.reason})\n`);
        },
      });
      if (opts.json) printJson(io, result);
      if (!result.ok)
        throw new StrataError(
          'PROVIDER',
          `llm check: ${result.provider} (${result.model}) did not answer: ${result.reason}`,
        );
      if (!opts.json) {
        printLine(
          io.stdout,
          `ok  ${result.provider} (${result.model}${result.baseUrl ? ` at ${result.baseUrl}` : ''}) answered in ` +
            `${result.latencyMs} ms: ${result.reply ?? ''}`,
        );
      }
    });
}
