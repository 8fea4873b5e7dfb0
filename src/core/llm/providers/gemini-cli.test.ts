// The gemini-cli provider: the contract suite run through the real `gemini` (test/clients) against the fake
// model server, plus what a sub-call must keep: the prompt intact on stdin, no chat left in ~/.gemini, and
// one-line errors. Without test/clients the real-CLI checks skip with one line (under CI they fail).
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
import { createGeminiCliProvider, geminiCliArgs, readGeminiOutput } from './gemini-cli.js';

const missing = agentClientsMissing();
if (missing) {
  if (process.env.CI)
    it('has the real clients installed', () => {
      throw new Error(missing);
    });
  else console.log(`gemini-cli real-CLI checks: skipped, ${missing}`);
}

// A named model: Gemini then asks no router model first, so one call is one scripted generation.
const start = () => startAgentCliBackend('gemini', (o) => createGeminiCliProvider({ model: 'gemini-2.5-flash', ...o }));

/** Every chat file under the isolated ~/.gemini/tmp. */
function chats(home: string): string[] {
  const tmp = join(home, '.gemini', 'tmp');
  if (!existsSync(tmp)) return [];
  return readdirSync(tmp, { recursive: true })
    .map(String)
    .filter((path) => /chats\/.+\.jsonl?$/.test(path));
}

describe.skipIf(missing !== undefined)('gemini-cli through the real gemini', () => {
  describeProviderContract('gemini-cli (real gemini, fake model server)', start, { oneCallPerCheck: true });

  describe('sub-call hygiene', () => {
    let backend: AgentCliBackend;
    beforeAll(async () => {
      backend = await start();
    });
    afterAll(() => backend.close());

    it('sends the system text and the prompt whole through stdin, and leaves no chat behind', async () => {
      const prompt = 'Line one "quoted" $(touch /tmp/never) `x`\nline two; rm -rf ~';
      backend.script([{ kind: 'ok', text: 'fine', inputTokens: 40, outputTokens: 2 }]);
      const before = backend.server.requests.length;
      const reply = await backend.provider.complete(
        { system: 'Be brief.', prompt, maxTokens: 10 },
        { timeoutMs: CLI_CALL_TIMEOUT_MS },
      );
      expect(reply).toMatchObject({ provider: 'gemini-cli', text: 'fine', model: 'gemini-2.5-flash' });
      expect(reply.usage.outputTokens).toBeGreaterThanOrEqual(2);
      const sent = backend.server.requests.slice(before).map((r) => r.text);
      expect(sent.some((body) => body.includes(JSON.stringify(`Be brief.\n\n${prompt}`).slice(1, -1)))).toBe(true);
      expect(chats(backend.home)).toEqual([]);
    });
  });
});

describe('gemini-cli without the real gemini', () => {
  it('reports a missing executable as one line naming how to install it', async () => {
    const provider = createGeminiCliProvider({ model: 'default', command: 'gemini-does-not-exist-xyz' });
    const error = await provider.complete({ prompt: 'x', maxTokens: 5 }, { timeoutMs: 5000 }).catch((e) => e);
    expect(error).toBeInstanceOf(LlmProviderError);
    expect((error as LlmProviderError).kind).toBe('process');
    expect((error as LlmProviderError).message).toBe(
      'gemini-cli: `gemini-does-not-exist-xyz` not found on PATH; install Gemini CLI ' +
        '(npm install -g @google/gemini-cli) or set llm.geminiPath in config.json',
    );
  });

  it('runs headless with an empty -p (the prompt is on stdin) and JSON output, a model only when named', () => {
    expect(geminiCliArgs({ model: 'default' })).toEqual(['-p', '', '--output-format', 'json', '--skip-trust']);
    expect(geminiCliArgs({ model: 'gemini-2.5-pro' }).slice(-2)).toEqual(['--model', 'gemini-2.5-pro']);
  });

  it("reads the answer, every model's tokens and the main model; an error object is one line", () => {
    const stats = {
      models: {
        'gemini-2.5-flash-lite': { tokens: { prompt: 10, candidates: 1 }, roles: { utility_router: {} } },
        'gemini-2.5-pro': { tokens: { prompt: 90, candidates: 7, thoughts: 3 }, roles: { main: {} } },
      },
    };
    expect(readGeminiOutput(0, { response: 'answer', stats }, '', '')).toEqual({
      text: 'answer',
      usage: { inputTokens: 100, outputTokens: 11 },
      model: 'gemini-2.5-pro',
    });
    const error = { type: 'FatalAuthenticationError', message: 'Please set an Auth method\nmore', code: 41 };
    expect(() => readGeminiOutput(41, { error }, '', '')).toThrow(
      /^gemini-cli: Please set an Auth method \(exit 41\)$/,
    );
    expect(() => readGeminiOutput(1, undefined, '', 'Error: boom\n')).toThrow(
      'gemini-cli: exited with code 1: Error: boom',
    );
    const stderr = [
      'Warning: Basic terminal detected (TERM=dumb).',
      'Ripgrep is not available. Falling back to GrepTool.',
      'Attempt 1 failed: Rate limit reached, slow down. Max attempts reached',
      'Error when talking to Gemini API Full report available at: /tmp/x.json RetryableQuotaError: Rate limit',
      '    at classifyGoogleError (file:///x.js:1:1)',
    ].join('\n');
    const limited = (() => {
      try {
        return readGeminiOutput(173, undefined, '', stderr);
      } catch (e) {
        return e as LlmProviderError;
      }
    })();
    expect(limited).toMatchObject({
      kind: 'rate_limit',
      message: 'gemini-cli: exited with code 173: Rate limit reached, slow down',
    });
  });
});
