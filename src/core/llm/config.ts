// Owns LLM configuration: flags > environment > config file (`llm` key of $STRATA_HOME/config.json,
// i.e. the data directory's config.json) > defaults, with the origin of the provider and model kept
// for `strata llm check`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StrataError, usageError } from '../../shared/errors.js';
import { dataDir, type Env } from '../../shared/paths.js';
import { PROVIDER_NAMES, type ProviderName } from './types.js';

export interface LlmFileConfig {
  provider?: string;
  model?: string;
  baseUrl?: string;
  timeoutMs?: number;
  concurrency?: number;
  maxCalls?: number;
  maxCost?: number;
  /** claude-cli: executable (default `claude`). */
  claudePath?: string;
  /** claude-cli: extra arguments. */
  claudeArgs?: string[];
  /** claude-cli: pass --no-session-persistence (default true). */
  noSessionPersistence?: boolean;
  /** codex-cli: executable (default `codex`) and extra arguments. */
  codexPath?: string;
  codexArgs?: string[];
  /** gemini-cli: executable (default `gemini`) and extra arguments. */
  geminiPath?: string;
  geminiArgs?: string[];
}

export interface LlmFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  maxCalls?: number;
  maxCost?: number;
  timeoutMs?: number;
  concurrency?: number;
}

export type ConfigOrigin = 'flag' | 'env' | 'config' | 'default';

export interface LlmConfig {
  provider: ProviderName;
  model: string;
  apiKey?: string;
  /** The environment variable the key is read from (named in errors). */
  apiKeyEnv?: 'ANTHROPIC_API_KEY' | 'OPENAI_API_KEY';
  baseUrl?: string;
  timeoutMs: number;
  concurrency: number;
  maxCalls?: number;
  maxCost?: number;
  claudePath: string;
  claudeArgs: string[];
  noSessionPersistence: boolean;
  codexPath: string;
  codexArgs: string[];
  geminiPath: string;
  geminiArgs: string[];
  origin: { provider: ConfigOrigin; model: ConfigOrigin };
}

export const DEFAULT_MODELS: Record<ProviderName, string> = {
  extractive: 'extractive-v1',
  anthropic: 'claude-haiku-4-5',
  openai: 'gpt-4o-mini',
  'claude-cli': 'haiku',
  // The user's own agent picks its model (its config, its login) unless --model names one.
  'codex-cli': 'default',
  'gemini-cli': 'default',
};

/** Providers that run the user's agent CLI: slower per call, so a longer default timeout. */
const AGENT_CLIS: ReadonlySet<ProviderName> = new Set(['claude-cli', 'codex-cli', 'gemini-cli']);

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

export function configFilePath(env: Env): string {
  return join(dataDir(env), 'config.json');
}

/** Reads the `llm` section of the config file; undefined when there is no file. */
export function readLlmConfigFile(env: Env): LlmFileConfig | undefined {
  const path = configFilePath(env);
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new StrataError('CONFIG', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  const llm = (parsed as { llm?: unknown } | null)?.llm;
  if (llm === undefined) return undefined;
  if (typeof llm !== 'object' || llm === null || Array.isArray(llm))
    throw new StrataError('CONFIG', `${path}: "llm" must be an object`);
  return llm as LlmFileConfig;
}

function pick<T>(...candidates: Array<[T | undefined, ConfigOrigin]>): [T | undefined, ConfigOrigin] {
  for (const [value, origin] of candidates) if (value !== undefined && value !== '') return [value, origin];
  return [undefined, 'default'];
}

function positive(value: number | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0) throw usageError(`${what} must be a non-negative number (got ${value})`);
  return value;
}

export function resolveLlmConfig(
  sources: { flags?: LlmFlags; env?: Env; configFile?: LlmFileConfig | undefined } = {},
): LlmConfig {
  const flags = sources.flags ?? {};
  const env = sources.env ?? {};
  const file = sources.configFile ?? {};
  const [providerValue, providerOrigin] = pick<string>(
    [flags.provider, 'flag'],
    [env.STRATA_LLM_PROVIDER, 'env'],
    [file.provider, 'config'],
  );
  const provider = (providerValue ?? 'extractive') as ProviderName;
  if (!PROVIDER_NAMES.includes(provider)) {
    throw usageError(
      `unknown LLM provider "${providerValue}" (from ${providerOrigin}); use one of: ${PROVIDER_NAMES.join(', ')}`,
    );
  }
  const [modelValue, modelOrigin] = pick<string>(
    [flags.model, 'flag'],
    [env.STRATA_LLM_MODEL, 'env'],
    [file.model, 'config'],
  );
  const envBaseUrl =
    provider === 'anthropic' ? env.ANTHROPIC_BASE_URL : provider === 'openai' ? env.OPENAI_BASE_URL : undefined;
  const [baseUrl] = pick<string>([flags.baseUrl, 'flag'], [envBaseUrl, 'env'], [file.baseUrl, 'config']);
  const apiKeyEnv =
    provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : provider === 'openai' ? 'OPENAI_API_KEY' : undefined;
  const apiKey = apiKeyEnv ? env[apiKeyEnv] || undefined : undefined;
  const maxCalls = positive(flags.maxCalls ?? file.maxCalls, 'max calls');
  const maxCost = positive(flags.maxCost ?? file.maxCost, 'max cost');
  const config: LlmConfig = {
    provider,
    model: provider === 'extractive' ? DEFAULT_MODELS.extractive : (modelValue ?? DEFAULT_MODELS[provider]),
    timeoutMs: positive(flags.timeoutMs ?? file.timeoutMs, 'timeout') ?? (AGENT_CLIS.has(provider) ? 180_000 : 60_000),
    concurrency: Math.max(1, Math.floor(positive(flags.concurrency ?? file.concurrency, 'concurrency') ?? 4)),
    claudePath: file.claudePath ?? 'claude',
    claudeArgs: stringList(file.claudeArgs),
    noSessionPersistence: file.noSessionPersistence !== false,
    codexPath: file.codexPath ?? 'codex',
    codexArgs: stringList(file.codexArgs),
    geminiPath: file.geminiPath ?? 'gemini',
    geminiArgs: stringList(file.geminiArgs),
    origin: { provider: providerOrigin, model: provider === 'extractive' ? 'default' : modelOrigin },
  };
  if (apiKeyEnv) config.apiKeyEnv = apiKeyEnv;
  if (apiKey) config.apiKey = apiKey;
  if (baseUrl) config.baseUrl = baseUrl;
  if (maxCalls !== undefined) config.maxCalls = maxCalls;
  if (maxCost !== undefined) config.maxCost = maxCost;
  return config;
}
