// End-to-end: the built CLI with `--provider codex-cli` and `--provider gemini-cli`, each driving the real
// client (test/clients) in an isolated HOME against the fake model server: `llm check` answers, `logbook`
// stores the model's event under the provider's name, and a missing client fails in one line (exit 1).
// Without test/clients this skips with one line; under CI it fails (.ci/run installs the clients).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentCli,
  type AgentCliBackend,
  agentClientsMissing,
  startAgentCliBackend,
} from './support/agent-cli-backend.js';
import { runCli } from './support/cli.js';
import { writeSessions } from './support/logbook-sessions.js';
import { createExtractiveProvider } from '../src/core/llm/providers/extractive.js';

const missing = agentClientsMissing();
if (missing) {
  if (process.env.CI)
    it('has the real clients installed', () => {
      throw new Error(missing);
    });
  else console.log(`agent-CLI providers e2e: skipped, ${missing}`);
}

const MODEL: Record<AgentCli, string> = { codex: 'gpt-5-mini', gemini: 'gemini-2.5-flash' };
const EVENT = {
  timestamp: '2026-01-01T09:00:05.000Z',
  type: 'decision',
  content: 'Use SQLite instead of JSON files for the store',
  rationale: 'writes must be atomic',
  source: { message_id: 2 }, // the chunk's [2]: the assistant's answer
};

for (const cli of ['codex', 'gemini'] as const) {
  const provider = `${cli}-cli`;
  describe.skipIf(missing !== undefined)(`strata --provider ${provider}`, () => {
    let backend: AgentCliBackend;
    let env: Record<string, string>;
    beforeAll(async () => {
      // The provider object is unused: the built CLI makes its own from --provider.
      backend = await startAgentCliBackend(cli, () => createExtractiveProvider());
      env = { ...backend.env, STRATA_HOME: join(backend.workDir, '..') };
    });
    afterAll(() => backend?.close());

    it('answers `llm check` through the real client', async () => {
      backend.script([{ kind: 'ok', text: 'OK' }]);
      const args = ['llm', 'check', '--provider', provider, '--model', MODEL[cli], '--json'];
      const result = await runCli(args, env, { timeout: 180_000 });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, provider, model: MODEL[cli], reply: 'OK' });
    });

    it("builds the logbook from the model's answer and records the provider", async () => {
      const dir = writeSessions(join(backend.workDir, '..', '..'), [
        {
          id: '77777777-aaaa-4aaa-8aaa-000000000001',
          cwd: '/work/app',
          start: '2026-01-01T09:00:00.000Z',
          turns: [
            { user: 'Pick a store for the app.' },
            { assistant: 'We decided to use SQLite instead of JSON files because writes must be atomic.' },
          ],
        },
      ]);
      expect((await runCli(['ingest', dir], env)).code).toBe(0);
      backend.script([{ kind: 'ok', text: JSON.stringify({ events: [EVENT] }) }]);
      const out = join(backend.workDir, '..', 'logbook.json');
      const args = ['logbook', '--project', '/work/app', '--provider', provider, '--model', MODEL[cli], '--out', out];
      const result = await runCli(args, env, { timeout: 300_000 });
      expect(result.code, result.stderr).toBe(0);
      const logbook = JSON.parse(readFileSync(out, 'utf8'));
      expect(logbook.generator).toMatchObject({ provider, model: MODEL[cli] });
      expect(logbook.timeline).toEqual([expect.objectContaining({ type: 'decision', content: EVENT.content })]);
    });

    it('fails in one line with exit 1 when the client is not installed', async () => {
      const result = await runCli(['llm', 'check', '--provider', provider], { ...env, PATH: '/usr/bin:/bin' });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(`${provider}: \`${cli}\` not found on PATH; install`);
    });
  });
}
