// Owns building a provider from a resolved LlmConfig. A network provider without its key fails here,
// naming the environment variable to set; vendor SDKs still load only on the first call. The Codex and
// Gemini CLIs run in strata's own empty folder (`<data dir>/subcall`), never in a project.
import type { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { StrataError } from '../../shared/errors.js';
import { dataDir } from '../../shared/paths.js';
import type { LlmConfig } from './config.js';
import type { LlmProvider } from './types.js';
import { createExtractiveProvider } from './providers/extractive.js';
import { createAnthropicProvider } from './providers/anthropic.js';
import { createOpenAiProvider } from './providers/openai.js';
import { createClaudeCliProvider } from './providers/claude-cli.js';
import { createCodexCliProvider } from './providers/codex-cli.js';
import { createGeminiCliProvider } from './providers/gemini-cli.js';
import type { SdkImporter } from './providers/load-sdk.js';

export interface ProviderDeps {
  /** Environment for the claude CLI child (default process.env). */
  env?: Record<string, string | undefined>;
  cwd?: string;
  importer?: SdkImporter;
  spawn?: typeof spawn;
  /** Working folder of codex-cli and gemini-cli sub-calls (default `<data dir>/subcall`). */
  subcallDir?: string;
}

function subcallDir(deps: ProviderDeps): string {
  const dir = deps.subcallDir ?? join(dataDir(deps.env ?? process.env), 'subcall');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export function createProvider(config: LlmConfig, deps: ProviderDeps = {}): LlmProvider {
  switch (config.provider) {
    case 'extractive':
      return createExtractiveProvider();
    case 'anthropic':
      if (!config.apiKey) throw missingKey('anthropic', 'ANTHROPIC_API_KEY');
      return createAnthropicProvider({
        model: config.model,
        apiKey: config.apiKey,
        ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
        ...(deps.importer ? { importer: deps.importer } : {}),
      });
    case 'openai': {
      // Local OpenAI-compatible servers (Ollama, llama.cpp, vLLM, LM Studio) need no key.
      const local = config.baseUrl !== undefined && !/^https:\/\/api\.openai\.com/i.test(config.baseUrl);
      if (!config.apiKey && !local)
        throw missingKey('openai', 'OPENAI_API_KEY', ' (or OPENAI_BASE_URL for a local server)');
      return createOpenAiProvider({
        model: config.model,
        apiKey: config.apiKey ?? 'not-needed',
        ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
        ...(deps.importer ? { importer: deps.importer } : {}),
      });
    }
    case 'claude-cli':
      return createClaudeCliProvider({
        model: config.model,
        command: config.claudePath,
        extraArgs: config.claudeArgs,
        noSessionPersistence: config.noSessionPersistence,
        ...(deps.env ? { env: deps.env } : {}),
        ...(deps.cwd ? { cwd: deps.cwd } : {}),
        ...(deps.spawn ? { spawn: deps.spawn } : {}),
      });
    case 'codex-cli':
    case 'gemini-cli': {
      const create = config.provider === 'codex-cli' ? createCodexCliProvider : createGeminiCliProvider;
      return create({
        model: config.model,
        command: config.provider === 'codex-cli' ? config.codexPath : config.geminiPath,
        extraArgs: config.provider === 'codex-cli' ? config.codexArgs : config.geminiArgs,
        cwd: subcallDir(deps),
        ...(deps.env ? { env: deps.env } : {}),
        ...(deps.spawn ? { spawn: deps.spawn } : {}),
      });
    }
  }
}

function missingKey(provider: string, variable: string, extra = ''): StrataError {
  return new StrataError('CONFIG', `the ${provider} provider needs an API key: set ${variable}${extra}`);
}
