// End-to-end tests for `strata pack`: spawn the built CLI on a segment made from the real fixtures.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../src/shared/tokenizer.js';
import { type CliResult, runCli } from './support/cli.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/real/markdown');

let root: string;
let home: string;

async function strata(args: string[], cwd = root): Promise<CliResult> {
  return await runCli(args, { HOME: root, STRATA_HOME: home }, { cwd });
}

interface IndexEntry {
  id: string;
  title_path: string[];
  source_path: string;
}

function packIndex(): IndexEntry[] {
  return (JSON.parse(readFileSync(join(root, 'superpowers/_ctx/context_pack.json'), 'utf8')) as { index: IndexEntry[] })
    .index;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'strata-pack-cli-'));
  home = join(root, '.strata-home');
  cpSync(join(FIXTURES, 'skills/obra-superpowers'), join(root, 'superpowers'), { recursive: true });
  cpSync(join(FIXTURES, 'agent-docs'), join(root, 'agents'), { recursive: true });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('strata pack (built CLI)', () => {
  it('builds a segment pack and its database', async () => {
    const r = await strata(['pack', 'build', '--segment', 'superpowers', '--repo-root', root, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({
      segment: 'superpowers',
      docs: 6,
      chunked_docs: expect.any(Array),
      reused_docs: [],
    });
    expect(existsSync(join(root, 'superpowers/_ctx/context_pack.json'))).toBe(true);
    expect(existsSync(join(root, 'superpowers/_ctx/context.db'))).toBe(true);
    // A second build reuses every doc; human output goes to stdout as one summary.
    const again = await strata(['pack', 'build', '--segment', 'superpowers']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^segment superpowers: 6 docs, \d+ chunks \(6 docs reused, 0 chunked\)/);
  });

  it('gets chunks by id, in order', async () => {
    const task = packIndex().find((e) => e.title_path.join('/') === 'Writing Plans/Task Structure');
    const r = await strata(['pack', 'get', '--segment', 'superpowers', task?.id ?? '']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.stdout.startsWith(
        `<!-- chunk ${task?.id} · skills/writing-plans/SKILL.md:79-126 · Writing Plans > Task Structure -->\n## Task ` +
          `Structure\n`,
      ),
    ).toBe(true);
    expect(r.stdout).toContain('````markdown');
  });

  it('stops adding chunks when the token budget is reached and says so', async () => {
    const ids = packIndex()
      .filter((e) => e.source_path === 'skills/writing-plans/SKILL.md')
      .slice(1, 4)
      .map((e) => e.id);
    const budget = countTokens((await strata(['pack', 'get', '--segment', 'superpowers', ids[0]!])).stdout) + 1;
    const r = await strata(['pack', 'get', '--segment', 'superpowers', '--budget', String(budget), '--json', ...ids]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      chunks: { id: string }[];
      omitted: string[];
      truncated: boolean;
      used_tokens: number;
    };
    expect(out.chunks.map((c) => c.id)).toEqual([ids[0]]);
    expect(out.omitted).toEqual(ids.slice(1));
    expect(out.truncated).toBe(true);
    expect(out.used_tokens).toBeLessThanOrEqual(budget);
    expect(r.stderr).toBe(
      `strata: budget of ${budget} tokens reached: returned 1 of 3 chunks (${out.used_tokens} tokens printed); ` +
        `omitted ${ids.slice(1).join(', ')}\n`,
    );
  });

  it('searches, with JSON output and k', async () => {
    const r = await strata(['pack', 'search', '--segment', 'superpowers', 'worktree', 'cleanup', '-k', '3', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { mode: string; hits: { id: string; source_path: string }[] };
    expect(out.mode).toBe('all');
    expect(out.hits.length).toBeGreaterThan(0);
    expect(out.hits.length).toBeLessThanOrEqual(3);
    const human = await strata(['pack', 'search', '--segment', 'superpowers', 'git worktree']);
    expect(human.stdout).toMatch(/^1\. skills\/using-git-worktrees\/SKILL:[0-9a-f]{10} {2}Using Git Worktrees/);
  });

  it('reports an invalid query in one line with exit code 2', async () => {
    const r = await strata(['pack', 'search', '--segment', 'superpowers', '"unbalanced quote']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^strata: invalid search query .*unterminated string/);
  });

  it('prints stats, and finds the segment from the current directory by default', async () => {
    const r = await strata(['pack', 'stats', '--json'], join(root, 'superpowers'));
    expect(r.code, r.stderr).toBe(0);
    const stats = JSON.parse(r.stdout) as { segment: string; docs: number; chunks: number; per_doc: unknown[] };
    expect(stats).toMatchObject({ segment: 'superpowers', docs: 6, db_in_sync: true });
    expect(stats.per_doc).toHaveLength(6);
    const human = await strata(['pack', 'stats', '--segment', 'superpowers']);
    expect(human.stdout).toMatch(/^segment {6}superpowers /);
    expect(human.stdout).toContain('DOC');
  });

  it('keeps segments isolated and explains a missing pack or id', async () => {
    const missing = await strata(['pack', 'search', '--segment', 'agents', 'rollback']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^strata: no context database at .*agents\/_ctx\/context\.db; run `strata pack build` first\n$/,
    );
    const unknown = await strata(['pack', 'get', '--segment', 'superpowers', 'nope:0000000000']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^strata: no chunk with id nope:0000000000 in segment superpowers/);
    expect((await strata(['pack', 'build', '--segment', 'agents'])).code).toBe(0);
    const other = JSON.parse(
      (await strata(['pack', 'search', '--segment', 'agents', 'skill', '-k', '50', '--json'])).stdout,
    ) as { hits: { source_path: string }[] };
    expect(other.hits.every((h) => !h.source_path.startsWith('skills/'))).toBe(true);
  });

  it('documents examples and segment lookup in --help', async () => {
    const r = await strata(['pack', 'get', '--help']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('--repo-root');
    expect(r.stdout).toContain('Finding the segment');
  });
});
