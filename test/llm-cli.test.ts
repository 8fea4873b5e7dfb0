// End-to-end: `strata llm check` through the built CLI with a temporary STRATA_HOME — the offline
// default answers; anthropic without a key fails with one line naming ANTHROPIC_API_KEY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';

let home: string;

async function run(args: string[], extraEnv: Record<string, string> = {}) {
  return await runCli(args, { HOME: home, STRATA_HOME: home, ...extraEnv }, { timeout: 180_000 });
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'strata-llm-cli-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('strata llm check', () => {
  it('answers with the offline extractive default', async () => {
    const result = await run(['llm', 'check']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok {2}extractive \(extractive-v1\) answered in \d+ ms: \{"summary":/);
  });

  it('prints JSON with --json', async () => {
    const result = await run(['llm', 'check', '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({
      ok: true,
      provider: 'extractive',
      model: 'extractive-v1',
      origin: { provider: 'default' },
    });
  });

  it('fails in one line naming ANTHROPIC_API_KEY when the anthropic key is missing', async () => {
    const result = await run(['llm', 'check', '--provider', 'anthropic']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('ANTHROPIC_API_KEY');
    expect(lines[0]).toMatch(
      new RegExp(
        /^strata: llm check: anthropic \(claude-haiku-4-5\) did not answer: the anthropic provider needs /.source +
          /an API key: set ANTHROPIC_API_KEY$/.source,
      ),
    );
  });

  it('reads the provider from the config file, overridden by the environment, overridden by flags', async () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ llm: { provider: 'openai', model: 'from-config' } }));
    const fromFile = JSON.parse((await run(['llm', 'check', '--json'])).stdout);
    expect(fromFile).toMatchObject({
      ok: false,
      provider: 'openai',
      model: 'from-config',
      origin: { provider: 'config', model: 'config' },
    });
    expect(fromFile.reason).toContain('OPENAI_API_KEY');
    const fromEnv = JSON.parse((await run(['llm', 'check', '--json'], { STRATA_LLM_PROVIDER: 'anthropic' })).stdout);
    expect(fromEnv).toMatchObject({ provider: 'anthropic', model: 'from-config', origin: { provider: 'env' } });
    const fromFlag = await run(['llm', 'check', '--provider', 'extractive'], { STRATA_LLM_PROVIDER: 'anthropic' });
    expect(fromFlag.code).toBe(0);
    rmSync(join(home, 'config.json'));
  });

  it('rejects an unknown provider as a usage error', async () => {
    const result = await run(['llm', 'check', '--provider', 'gpt-magic']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown LLM provider "gpt-magic"');
  });
});
