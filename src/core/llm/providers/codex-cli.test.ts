// The codex-cli provider: the contract suite run through the real `codex` (test/clients) against the fake
// model server, plus what a sub-call must keep: the prompt intact on stdin, no session saved, and one-line
// errors. Without test/clients the real-CLI checks skip with one line (under CI they fail: .ci/run installs it).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentCliBackend,
  agentClientsMissing,
  CLI_CALL_TIMEOUT_MS,
  startAgentCliBackend,
} from '../../../../test/support/agent-cli-backend.js';
import { describeProviderContract } from '../../../../test/support/llm-provider-contract.js';
import { LlmProviderError } from '../errors.js';
import { codexCliArgs, createCodexCliProvider, readCodexEvents } from './codex-cli.js';

const missing = agentClientsMissing();
if (missing) {
  if (process.env.CI)
    it('has the real clients installed', () => {
      throw new Error(missing);
    });
  else console.log(`codex-cli real-CLI checks: skipped, ${missing}`);
}

// A model id from the price table, so the contract's cost check has a price to apply.
const start = () => startAgentCliBackend('codex', (o) => createCodexCliProvider({ model: 'gpt-5-mini', ...o }));

describe.skipIf(missing !== undefined)('codex-cli through the real codex', () => {
  describeProviderContract('codex-cli (real codex, fake model server)', start, { oneCallPerCheck: true });

  describe('sub-call hygiene', () => {
    let backend: AgentCliBackend;
    beforeAll(async () => {
      backend = await start();
    });
    afterAll(() => backend.close());

    it('sends the system text and the prompt whole through stdin, and saves no session', async () => {
      const prompt = 'Line one "quoted" $(touch /tmp/never) `x`\nline two; rm -rf ~';
      backend.script([{ kind: 'ok', text: 'fine' }]);
      const before = backend.server.requests.length;
      const reply = await backend.provider.complete(
        { system: 'Be brief.', prompt, maxTokens: 10 },
        { timeoutMs: CLI_CALL_TIMEOUT_MS },
      );
      expect(reply).toMatchObject({ provider: 'codex-cli', text: 'fine', model: 'gpt-5-mini' });
      const sent = backend.server.requests.slice(before).map((r) => r.text);
      expect(sent.some((body) => body.includes(JSON.stringify(`Be brief.\n\n${prompt}`).slice(1, -1)))).toBe(true);
      expect(sent.some((body) => body.includes('"model":"gpt-5-mini"'))).toBe(true);
      const sessions = join(backend.home, '.codex', 'sessions');
      expect(existsSync(sessions) ? readdirSync(sessions, { recursive: true }) : []).toEqual([]);
    });
  });
});

describe('codex-cli without the real codex', () => {
  it('reports a missing executable as one line naming how to install it', async () => {
    const provider = createCodexCliProvider({ model: 'default', command: 'codex-does-not-exist-xyz' });
    const error = await provider.complete({ prompt: 'x', maxTokens: 5 }, { timeoutMs: 5000 }).catch((e) => e);
    expect(error).toBeInstanceOf(LlmProviderError);
    expect((error as LlmProviderError).kind).toBe('process');
    expect((error as LlmProviderError).message).toBe(
      'codex-cli: `codex-does-not-exist-xyz` not found on PATH; install Codex (npm install -g @openai/codex) ' +
        'or set llm.codexPath in config.json',
    );
  });

  it('runs exec headless, read-only and ephemeral, the prompt from stdin, a model only when named', () => {
    expect(codexCliArgs({ model: 'default' })).toEqual([
      'exec',
      '--json',
      '--ephemeral',
      '--skip-git-repo-check',
      '--sandbox',
      'read-only',
      '--color',
      'never',
      '-',
    ]);
    expect(codexCliArgs({ model: 'gpt-5-mini', extraArgs: ['-c', 'x=1'] }).slice(-5)).toEqual([
      '--model',
      'gpt-5-mini',
      '-c',
      'x=1',
      '-',
    ]);
  });

  it('reads the last agent message and the usage; a failed turn is an error, a warning item is not', () => {
    const events = [
      { type: 'thread.started', thread_id: 't' },
      { type: 'item.completed', item: { type: 'error', message: 'Model metadata not found' } },
      { type: 'item.completed', item: { type: 'agent_message', text: 'first' } },
      { type: 'item.completed', item: { type: 'agent_message', text: 'answer' } },
      { type: 'turn.completed', usage: { input_tokens: 30, output_tokens: 4 } },
    ];
    const out = events.map((e) => JSON.stringify(e)).join('\n');
    expect(readCodexEvents(0, out, '')).toEqual({ text: 'answer', usage: { inputTokens: 30, outputTokens: 4 } });
    const turnFailed = { type: 'turn.failed', error: { message: 'stream error: 429 Too Many Requests' } };
    const failed = `${JSON.stringify(turnFailed)}\n`;
    expect(() => readCodexEvents(1, failed, '')).toThrow(/^codex-cli: stream error: 429 Too Many Requests$/);
    const kind = (() => {
      try {
        readCodexEvents(1, failed, '');
      } catch (e) {
        return (e as LlmProviderError).kind;
      }
    })();
    expect(kind).toBe('rate_limit');
    expect(() => readCodexEvents(2, '', 'WARNING: x\nError: not logged in\n')).toThrow(
      'codex-cli: exited with code 2: Error: not logged in',
    );
  });
});
