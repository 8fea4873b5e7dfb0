// Contract suite for the claude-cli provider against a fake `claude` executable on PATH (a small node
// script that checks the STRATA_SUBCALL guard, records its argv and answers from a script file).
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describeProviderContract, type ContractBackend } from '../../../../test/support/llm-provider-contract.js';
import { createClaudeCliProvider } from './claude-cli.js';
import { assertNotReentrant, isSubcall } from '../reentrancy.js';
import { LlmProviderError } from '../errors.js';

const FAKE_CLAUDE = `#!/usr/bin/env node
const fs = require('fs');
const path = require('path');
const dir = __dirname;
const call = { argv: process.argv.slice(2), guard: process.env.STRATA_SUBCALL ?? null };
fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify(call) + '\\n');
if (process.env.STRATA_SUBCALL !== '1') { process.stderr.write('re-entrancy guard missing\\n'); process.exit(9); }
let stdin = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => (stdin += d));
process.stdin.on('end', () => {
  fs.appendFileSync(path.join(dir, 'stdin.log'), stdin.length + '\\n');
  const file = path.join(dir, 'script.json');
  const steps = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
  const step = steps.shift() || { kind: 'ok', text: 'OK' };
  fs.writeFileSync(file, JSON.stringify(steps));
  const base = { type: 'result', subtype: 'success', session_id: 'fake', total_cost_usd: 0.0012 };
  const usage0 = { input_tokens: 10, output_tokens: 4 };
  const out = (o) => process.stdout.write(JSON.stringify({ ...base, usage: usage0, ...o }));
  const failed = (result) => out({ is_error: true, subtype: 'error_during_execution', result });
  const usage = { input_tokens: step.inputTokens || 10, output_tokens: step.outputTokens || 4 };
  if (step.kind === 'ok') out({ is_error: false, result: step.text, usage });
  else if (step.kind === 'rate-limit') failed('API Error: 429 rate limit exceeded');
  else if (step.kind === 'server-error') failed('API Error: 500 Internal server error');
  else if (step.kind === 'slow') setTimeout(() => out({ is_error: false, result: step.text || 'late' }), step.delayMs);
  else if (step.kind === 'empty') out({ is_error: false, result: '' });
});
`;

const dir = mkdtempSync(join(tmpdir(), 'strata-fake-claude-'));
writeFileSync(join(dir, 'claude'), FAKE_CLAUDE);
chmodSync(join(dir, 'claude'), 0o755);
const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dir}${delimiter}${process.env.PATH ?? ''}` };
delete env.STRATA_SUBCALL;

function calls(): Array<{ argv: string[]; guard: string | null }> {
  const file = join(dir, 'calls.jsonl');
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];
}

async function cliBackend(): Promise<ContractBackend> {
  return {
    provider: createClaudeCliProvider({ model: 'haiku', env }),
    script: (steps) => writeFileSync(join(dir, 'script.json'), JSON.stringify(steps)),
    requestCount: () => calls().length,
    supportsRetryAfter: false,
    close: async () => {},
  };
}

describeProviderContract('claude-cli (fake claude on PATH)', cliBackend);

describe('claude-cli sub-call hygiene', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs every call with the STRATA_SUBCALL guard, print mode, JSON output and no session persistence', async () => {
    writeFileSync(join(dir, 'script.json'), JSON.stringify([{ kind: 'ok', text: 'fine' }]));
    const provider = createClaudeCliProvider({ model: 'haiku', env });
    const reply = await provider.complete(
      { system: 'Be brief.', prompt: 'prompt on stdin', maxTokens: 10 },
      { timeoutMs: 5000 },
    );
    expect(reply.text).toBe('fine');
    expect(reply.costUsd).toBe(0.0012);
    const all = calls();
    expect(all.length).toBeGreaterThan(5);
    expect(all.every((c) => c.guard === '1')).toBe(true);
    const last = all[all.length - 1]!;
    expect(last.argv.slice(0, 5)).toEqual(['-p', '--output-format', 'json', '--max-turns', '1']);
    expect(last.argv).toContain('--no-session-persistence');
    expect(last.argv).toEqual(expect.arrayContaining(['--model', 'haiku', '--system-prompt', 'Be brief.']));
    expect(last.argv.join(' ')).not.toContain('prompt on stdin'); // the prompt goes to stdin, never argv
    expect(readFileSync(join(dir, 'stdin.log'), 'utf8').trim().split('\n').pop()).toBe(
      String('prompt on stdin'.length),
    );
  });

  it('reports a missing executable as a non-retryable process error', async () => {
    const provider = createClaudeCliProvider({ model: 'haiku', command: 'claude-does-not-exist-xyz', env });
    const error = await provider.complete({ prompt: 'x', maxTokens: 5 }, { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmProviderError);
    expect((error as LlmProviderError).kind).toBe('process');
    expect((error as LlmProviderError).message).toContain('not found on PATH');
  });

  it('assertNotReentrant refuses to run inside a sub-call', () => {
    expect(isSubcall({ STRATA_SUBCALL: '1' })).toBe(true);
    expect(isSubcall({})).toBe(false);
    expect(() => assertNotReentrant({}, 'ingest')).not.toThrow();
    expect(() => assertNotReentrant({ STRATA_SUBCALL: '1' }, 'ingest')).toThrow(
      /refusing to run ingest inside a strata LLM sub-call \(STRATA_SUBCALL=1\)/,
    );
  });
});
