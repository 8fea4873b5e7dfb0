// The contract backend for the agent-CLI providers (codex-cli, gemini-cli): the real client from
// test/clients in an isolated HOME, configured with the real-client suite's own settings, against the
// real-client suite's fake model server, whose scripted steps play the contract's answers.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LlmProvider } from '../../src/core/llm/types.js';
import { CLIENTS_INSTALLED, isolatedEnv } from './client-harness.js';
import { codexEnv, geminiEnv, writeCodexConfig, writeGeminiSettings } from './client-config.js';
import { type FakeModel, startFakeModel } from './fake-model.js';
import type { ContractBackend } from './llm-provider-contract.js';
import { tempDir } from './paths.js';

export interface AgentCliBackend extends ContractBackend {
  server: FakeModel;
  env: Record<string, string>;
  /** The provider's working folder (strata's own, as `<data dir>/subcall` in use). */
  workDir: string;
  home: string;
}

export type AgentCli = 'codex' | 'gemini';

/** A CLI call on a loaded machine can take seconds: generous per-call time, never a speed check. */
export const CLI_CALL_TIMEOUT_MS = 120_000;

export async function startAgentCliBackend(
  cli: AgentCli,
  create: (options: { env: Record<string, string>; cwd: string }) => LlmProvider,
): Promise<AgentCliBackend> {
  const root = tempDir(`strata-${cli}-cli-`);
  const home = join(root, 'home');
  const workDir = join(root, 'strata', 'subcall');
  mkdirSync(home, { recursive: true });
  mkdirSync(workDir, { recursive: true });
  const server = await startFakeModel(cli === 'codex' ? 'responses' : 'gemini', {
    query: 'unused',
    answer: 'unscripted',
    logFile: join(root, 'requests.jsonl'),
    // Outlives a whole contract suite on a loaded machine; close() ends it sooner.
    lifetimeMs: 20 * 60_000,
  });
  let env: Record<string, string>;
  if (cli === 'codex') {
    writeCodexConfig(home, server);
    env = isolatedEnv(root, home, codexEnv(home));
  } else {
    // One attempt per call: retries are strata's runner's to make, as the contract counts them.
    writeGeminiSettings(home, { maxAttempts: 1 });
    env = isolatedEnv(root, home, geminiEnv(server));
  }
  return {
    provider: create({ env, cwd: workDir }),
    script: (steps) => server.script(steps),
    requestCount: () => server.scripted(),
    supportsRetryAfter: false,
    callTimeoutMs: CLI_CALL_TIMEOUT_MS,
    close: () => server.close(),
    server,
    env,
    workDir,
    home,
  };
}

/** One line when the clients are missing: a skip outside CI, a failure under CI (which installs them). */
export function agentClientsMissing(): string | undefined {
  if (CLIENTS_INSTALLED) return undefined;
  return 'test/clients/node_modules is missing: npm install --prefix test/clients (.ci/run installs it)';
}
