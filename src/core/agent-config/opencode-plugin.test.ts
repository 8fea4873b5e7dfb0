// The OpenCode plugin's system transform, run as OpenCode runs it: context for a session's own requests,
// none for the request that titles the session.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OPENCODE_PLUGIN } from './opencode-plugin.js';

const dir = mkdtempSync(join(tmpdir(), 'strata-opencode-plugin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Transform = (input: unknown, output: { system: string[] }) => Promise<void>;

async function loadPlugin(): Promise<{ transform: Transform; calls: string[] }> {
  const file = join(dir, 'strata.mjs');
  writeFileSync(file, OPENCODE_PLUGIN);
  const calls: string[] = [];
  // A stand-in for Bun's shell: records the command, answers as `strata hook context` does.
  const $ = (parts: TemplateStringsArray, ...values: unknown[]) => {
    calls.push(parts.map((p, i) => p + (i < values.length ? String(values[i]) : '')).join(''));
    const stdout = JSON.stringify({ additionalContext: '# Latest sessions of this project (strata)\nx' });
    const result = { exitCode: 0, stdout: Buffer.from(stdout) };
    return { quiet: () => ({ nothrow: () => Promise.resolve(result) }) };
  };
  const mod = (await import(pathToFileURL(file).href)) as { StrataPlugin: (ctx: unknown) => Promise<unknown> };
  const hooks = (await mod.StrataPlugin({ $, directory: '/work/app' })) as Record<string, Transform>;
  return { transform: hooks['experimental.chat.system.transform']!, calls };
}

describe('OpenCode plugin', () => {
  it("adds strata's context to a session's requests, not to OpenCode's title request", async () => {
    const { transform, calls } = await loadPlugin();
    const title = { system: ['You are a title generator. You output ONLY a thread title.'] };
    await transform({ sessionID: 's1', agent: 'title' }, title);
    await transform({ sessionID: 's1' }, title);
    expect(title.system).toHaveLength(1);
    expect(calls).toHaveLength(0);
    const chat = { system: ['You are opencode, an agent.'] };
    await transform({ sessionID: 's1', agent: 'build' }, chat);
    expect(chat.system[1]).toMatch(/^# Latest sessions of this project \(strata\)/);
    expect(calls).toHaveLength(1);
  });
});
