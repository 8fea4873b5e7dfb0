// Running an agent CLI: a call given up (time-out or abort) is reported only once its child is gone, even a
// child that ignores SIGTERM, so no sub-call outlives its call; the prompt reaches stdin whole.
import { type ChildProcess, spawn as nodeSpawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LlmProviderError } from '../errors.js';
import { runCliProcess } from './cli-process.js';

const base = { provider: 'codex-cli' as const, command: process.execPath, env: process.env, installHint: 'x' };

describe('runCliProcess', () => {
  it('reports a time-out only after the child that ignores SIGTERM has exited', async () => {
    const children: ChildProcess[] = [];
    const spawn = ((...args: Parameters<typeof nodeSpawn>) => {
      const child = nodeSpawn(...args);
      children.push(child);
      return child;
    }) as typeof nodeSpawn;
    const script = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);";
    const error = await runCliProcess({ ...base, args: ['-e', script], input: '', spawn }, { timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LlmProviderError);
    expect((error as LlmProviderError).kind).toBe('timeout');
    expect(children).toHaveLength(1);
    expect(children[0]!.exitCode !== null || children[0]!.signalCode !== null, 'the child still runs').toBe(true);
  });

  it('hands the input to stdin whole and returns stdout and the exit code', async () => {
    const input = 'line "one"\n$(not a shell) `x`\n';
    const script = "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{process.stdout.write(s);process.exit(3)})";
    const result = await runCliProcess({ ...base, args: ['-e', script], input }, { timeoutMs: 30_000 });
    expect(result).toMatchObject({ code: 3, stdout: input });
  });
});
