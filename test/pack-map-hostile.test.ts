// Hostile input for `strata map` and `strata pack`: special-token text, bad arguments and manifests,
// and budgets that must cover everything printed. Every failure is one line with its exit code.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../src/shared/tokenizer.js';
import { type CliResult, runCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { samplePrompts, writeHistory } from './support/history-index-fixtures.js';

let root: string;

async function strata(args: string[]): Promise<CliResult> {
  return await runCli(args, { HOME: root, STRATA_HOME: join(root, 'home') }, { cwd: root });
}

function expectOneLine(r: { code: number | null; stderr: string }, code: number): void {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

// A small deterministic generator, so a failing trial can be replayed.
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'strata-hostile-'));
  mkdirSync(join(root, 'code'));
  writeFileSync(
    join(root, 'code', 'special.ts'),
    'export const END = "<|endoftext|>";\nexport function prompt(): string {\n  return "<|im_start|>user";\n}\n',
  );
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'tokens.md'), '# Tokens\n\nThe model stops at <|endoftext|> and <|endofprompt|>.\n');
  const next = random(7);
  const sections: string[] = [];
  for (let i = 0; i < 30; i++) {
    const words = Array.from(
      { length: 20 + Math.floor(next() * 200) },
      () => ['alpha', 'beta', 'gamma', 'delta', 'ünïcode', '漢字', 'x_y'][Math.floor(next() * 7)],
    ).join(' ');
    sections.push(`## Section ${i}\n\n${words}\n`);
  }
  writeFileSync(join(root, 'docs', 'many.md'), `# Many\n\n${sections.join('\n')}`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('special tokens are plain text', () => {
  it('map render, map chunk and pack get accept text holding <|endoftext|>', async () => {
    const render = await strata(['map', 'render', 'code', '--budget', '2000', '--no-cache']);
    expect(render.code, render.stderr).toBe(0);
    expect(render.stdout).toContain('<|endoftext|>');
    const chunk = await strata(['map', 'chunk', 'code', '--out', join(root, 'chunks'), '--no-cache', '--json']);
    expect(chunk.code, chunk.stderr).toBe(0);
    const build = await strata(['pack', 'build', '--segment', 'docs', '--json']);
    expect(build.code, build.stderr).toBe(0);
    const pack = JSON.parse(readFileSync(join(root, 'docs/_ctx/context_pack.json'), 'utf8')) as {
      index: { id: string; doc: string }[];
    };
    const id = pack.index.find((e) => e.doc === 'tokens')!.id;
    const get = await strata(['pack', 'get', '--segment', 'docs', id, '--budget', '500']);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toContain('<|endoftext|>');
  });
});

describe('special tokens in a history', () => {
  it('history-index accepts prompts holding <|endoftext|>', async () => {
    const prompts = samplePrompts(2, 3).map((p) => ({ ...p, content: `${p.content} <|endoftext|> <|im_start|>` }));
    const history = writeHistory(join(root, 'history.json'), { main: prompts });
    const r = await strata([
      'history-index',
      '--history',
      history,
      '--out',
      join(root, 'history-index.json'),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('bad arguments: one line, exit 2', () => {
  it('map search --manifest on a file that is not a manifest', async () => {
    writeFileSync(join(root, 'hostname'), 'myhost\n');
    const r = await strata(['map', 'search', 'foo', '--manifest', join(root, 'hostname')]);
    expectOneLine(r, 2);
    expect(r.stderr).toMatch(/not a chunk manifest/);
    expectOneLine(await strata(['map', 'search', 'foo', '--manifest', root]), 2);
  });

  it('pack search -k out of range, and zero limits', async () => {
    await strata(['pack', 'build', '--segment', 'docs']);
    expectOneLine(await strata(['pack', 'search', '--segment', 'docs', 'alpha', '-k', '99999999999999999999']), 2);
    expectOneLine(await strata(['pack', 'search', '--segment', 'docs', 'alpha', '-k', '0']), 2);
    expectOneLine(await strata(['pack', 'search', '--segment', 'docs', 'alpha', '--limit', '0']), 2);
    expectOneLine(await strata(['pack', 'search', '--segment', 'docs', 'alpha', '-k', '1e3']), 2);
    expectOneLine(await strata(['pack', 'get', '--segment', 'docs', 'x:1', '--budget', '0']), 2);
    expectOneLine(await strata(['map', 'render', 'code', '--budget', '1e19']), 2);
    expect((await strata(['pack', 'search', '--segment', 'docs', 'alpha', '-k', '1000000'])).code).toBe(0);
  });

  it('pack build --segment escaping the repo root', async () => {
    expectOneLine(await strata(['pack', 'build', '--segment', '../']), 2);
    expectOneLine(await strata(['pack', 'build', '--segment', '/etc']), 2);
  });
});

describe('pack get --budget covers everything printed', () => {
  // In-process: 25 runs of one command; the built CLI runs `pack get` as a child in the first test above.
  it('never prints more tokens than the budget over random trials', async () => {
    await strata(['pack', 'build', '--segment', 'docs']);
    const pack = JSON.parse(readFileSync(join(root, 'docs/_ctx/context_pack.json'), 'utf8')) as {
      index: { id: string; doc: string }[];
    };
    const ids = pack.index.filter((e) => e.doc === 'many').map((e) => e.id);
    const next = random(42);
    for (let trial = 0; trial < 25; trial++) {
      const picked = Array.from({ length: 1 + Math.floor(next() * 6) }, () => ids[Math.floor(next() * ids.length)]!);
      const budget = 50 + Math.floor(next() * 1500);
      const args = ['pack', 'get', '--segment', 'docs', '--budget', String(budget), ...picked];
      const r = await runCliInProcess(args, { HOME: root, STRATA_HOME: join(root, 'home') }, { cwd: root });
      expect(r.code, r.stderr).toBe(0);
      expect(countTokens(r.stdout), `trial ${trial}: budget ${budget}`).toBeLessThanOrEqual(budget);
    }
  });
});
