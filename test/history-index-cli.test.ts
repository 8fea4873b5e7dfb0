// End-to-end tests of `strata history-index`, `strata markers` and `strata topics` on the built CLI with
// a pinned environment and a temporary STRATA_HOME.
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { holdLock, runCli, runCliAsync, tempDir } from './support/cli.js';
import { CLAUDE_FIXTURES, PUFFIN_FIXTURES } from './support/history-index-fixtures.js';
import { IndexSerializer } from '../src/core/history-index/index.js';

let home: string;
let env: Record<string, string>;

beforeAll(() => {
  home = tempDir('strata-hi-cli-');
  env = { STRATA_HOME: join(home, 'data'), HOME: home };
});

describe('strata history-index CLI', () => {
  it(
    'indexes a Puffin history with phase progress on stderr and the output path on stdout; a re-run makes no ' + 'call',
    async () => {
      const out = join(home, 'cosa.index.json');
      const first = await runCli(['history-index', '--history', PUFFIN_FIXTURES[0]!, '--out', out], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toBe(`${out}\n`);
      for (const line of [
        'history-index: parse…',
        'history-index: markers…',
        'history-index: segment…',
        'history-index: summarize 0/',
        'history-index: write…',
        '[RLM Index Generator] Processing Complete',
        'Prompts Processed:  24',
      ]) {
        expect(first.stderr).toContain(line);
      }
      expect(first.stderr).toMatch(/history-index: summarize (\d+)\/\1\n/);
      expect(IndexSerializer.validate(JSON.parse(readFileSync(out, 'utf8'))).valid).toBe(true);
      const again = await runCli(['history-index', '--history', PUFFIN_FIXTURES[0]!, '--out', out, '--json'], env);
      expect(again.code, again.stderr).toBe(0);
      const report = JSON.parse(again.stdout);
      expect(report).toMatchObject({
        output: out,
        written: false,
        mode: 'unchanged',
        statistics: { llmCalls: { count: 0 }, promptsProcessed: 24 },
      });
      const full = JSON.parse(
        (await runCli(['history-index', '--history', PUFFIN_FIXTURES[0]!, '--out', out, '--json', '--full'], env))
          .stdout,
      );
      expect(full.mode).toBe('full');
      expect(full.statistics.llmCalls.count).toBe(full.statistics.segmentsGenerated);
    },
  );

  it('accepts the LLM flags strata llm documents, --base-url among them', async () => {
    const out = join(tempDir('strata-hi-flags-'), 'index.json');
    const r = await runCli(
      [
        'history-index',
        '--history',
        PUFFIN_FIXTURES[0]!,
        '--out',
        out,
        '--provider',
        'extractive',
        '--base-url',
        'http://127.0.0.1:9',
        '--max-calls',
        '100',
      ],
      env,
    );
    expect(r.stderr).not.toMatch(/unknown option/);
    expect(r.code).toBe(0);
  });

  it(
    'writes FILE.index.json beside --history by default, ' + 'and markers/topics read it from the project folder',
    async () => {
      const project = join(home, 'proj');
      mkdirSync(join(project, '.puffin'), { recursive: true });
      writeFileSync(
        join(project, '.puffin', 'history.json'),
        JSON.stringify({
          branches: {
            main: {
              id: 'main',
              prompts: [
                {
                  id: 'p1',
                  parentId: null,
                  content: 'Plan the storage layer.\n@/decision: use SQLite with WAL\nmore',
                  timestamp: Date.UTC(2025, 0, 2),
                  response: { content: 'Done.\n@/todo: add a vacuum job' },
                },
                {
                  id: 'p2',
                  parentId: null,
                  content: '@/bug: lock file left behind after crash',
                  timestamp: Date.UTC(2025, 5, 2),
                  response: { content: 'Fixed in src/shared/file-lock.ts' },
                },
              ],
            },
          },
        }),
      );
      const built = await runCli(['history-index'], env, { cwd: project });
      expect(built.code, built.stderr).toBe(0);
      expect(existsSync(join(project, '.puffin', 'history.index.json'))).toBe(true);
      const markers = await runCli(['markers'], env, { cwd: project });
      expect(markers.code).toBe(0);
      expect(markers.stdout.split('\n')[0]).toMatch(/^TYPE\s+DATE\s+PROMPT\s+FIELD\s+CONTENT$/);
      expect(markers.stdout).toMatch(/decision\s+2025-01-02\s+p1\s+prompt\s+use SQLite with WAL/);
      const bugs = JSON.parse(
        (await runCli(['markers', '--type', 'bug,todo', '--json'], env, { cwd: project })).stdout,
      );
      expect(bugs.map((m: { type: string }) => m.type)).toEqual(['todo', 'bug']);
      const since = JSON.parse(
        (await runCli(['markers', '--since', '2025-03-01', '--json'], env, { cwd: project })).stdout,
      );
      expect(since.map((m: { promptId: string }) => m.promptId)).toEqual(['p2']);
      const topics = await runCli(['topics', '--json'], env, { cwd: project });
      expect(topics.code).toBe(0);
      const list = JSON.parse(topics.stdout) as Array<{ topic: string; count: number; segments: string[] }>;
      expect(list.length).toBeGreaterThan(0);
      expect(list[0]!.count).toBe(list[0]!.segments.length);
    },
  );

  it('indexes stored sessions by --project and by --session prefix', async () => {
    const ingested = await runCli(['ingest', CLAUDE_FIXTURES, '--json'], env);
    expect(ingested.code, ingested.stderr).toBe(0);
    const out = join(home, 'project.index.json');
    const byProject = await runCli(
      [
        'history-index',
        '--project',
        '/Users/testuser/Documents/GitHub/projects/example-project',
        '--out',
        out,
        '--json',
      ],
      env,
    );
    expect(byProject.code, byProject.stderr).toBe(0);
    const index = JSON.parse(readFileSync(out, 'utf8'));
    expect(index.source.kind).toBe('store');
    expect(index.statistics.totalPrompts).toBeGreaterThan(0);
    const sessions = JSON.parse((await runCli(['sessions', '--json'], env)).stdout) as Array<{
      id: string;
      agent: string;
      prompts: number;
    }>;
    const one = sessions.find((s) => s.agent === 'claude-code' && s.prompts > 0)!;
    const bySession = await runCli(['history-index', '--session', one.id.slice(0, 10), '--json'], env);
    expect(bySession.code, bySession.stderr).toBe(0);
    const report = JSON.parse(bySession.stdout);
    expect(report.output.startsWith(join(env.STRATA_HOME!, 'history-index', 'sessions-'))).toBe(true);
    expect(report.statistics.promptsProcessed).toBe(one.prompts);
    const none = await runCli(['history-index', '--project', join(home, 'nothing-here')], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no sessions for project/);
  });

  it('waits for another generator on the same output, then exits 3 naming the holder', async () => {
    const out = join(home, 'locked.index.json');
    const holder = await holdLock(`${out}.lock`, 'strata history-index (other)');
    try {
      const r = await runCli(['history-index', '--history', PUFFIN_FIXTURES[0]!, '--out', out], {
        ...env,
        STRATA_LOCK_TIMEOUT_MS: '400',
      });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/waiting for .*locked\.index\.json\.lock, held by pid \d+/);
      expect(r.stderr).toMatch(
        new RegExp(
          `strata: .*held by pid ${holder.pid} .*\\(strata history-index \\(other\\), since \\d{4}-[^)]*\\); gave up ` +
            `after 0 s`,
        ),
      );
      expect(existsSync(out)).toBe(false);
    } finally {
      await holder.stop();
    }
  });

  it('reports usage errors, a missing history and a missing index clearly', async () => {
    const both = await runCli(['history-index', '--history', 'x.json', '--project', '.'], env);
    expect(both.code, both.stderr).toBe(2);
    expect(both.stderr).toMatch(/cannot be combined/);
    const missing = await runCli(
      ['history-index', '--history', join(home, 'nope.json'), '--out', join(home, 'nope.index.json')],
      env,
    );
    // An explicit --history that is missing is a bad argument: one line, exit 2, nothing written.
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/--history .*nope\.json: no such file/);
    expect(existsSync(join(home, 'nope.index.json'))).toBe(false);
    expect(missing.stdout).toBe('');
    const noIndex = await runCli(['markers', '--index', join(home, 'absent.json')], env);
    expect(noIndex.code).toBe(2);
    expect(noIndex.stderr).toMatch(/no history index at .*absent\.json; run `strata history-index` first/);
  });

  it(
    'finds a history in .claude/rlm_state/ when none is named; an empty .puffin/ gives an empty index and says ' + 'so',
    async () => {
      const project = tempDir('strata-hi-find-');
      mkdirSync(join(project, '.claude', 'rlm_state'), { recursive: true });
      writeFileSync(join(project, '.claude', 'rlm_state', 'history.json'), readFileSync(PUFFIN_FIXTURES[0]!));
      const found = await runCli(['history-index'], env, { cwd: project });
      expect(found.code, found.stderr).toBe(0);
      const index = JSON.parse(readFileSync(join(project, '.claude', 'rlm_state', 'history.index.json'), 'utf8'));
      expect(index.statistics.totalPrompts).toBe(24);
      expect((await runCli(['topics', '--json'], env, { cwd: project })).code).toBe(0);

      const bare = tempDir('strata-hi-bare-');
      mkdirSync(join(bare, '.puffin'));
      const empty = await runCli(['history-index'], env, { cwd: bare });
      expect(empty.code, empty.stderr).toBe(0);
      expect(empty.stderr).toMatch(/history file not found: .*\.puffin\/history\.json; the index will be empty/);
      const written = JSON.parse(readFileSync(join(bare, '.puffin', 'history.index.json'), 'utf8'));
      expect(IndexSerializer.validate(written).valid).toBe(true);
      expect(written.segments).toEqual([]);
    },
  );

  it(
    'refuses a JSON file that is not a Puffin history, ' + 'and a --marker-config that is not JSON, with exit 2',
    async () => {
      const other = join(home, 'not-puffin.json');
      writeFileSync(other, '{"hello":"world"}');
      const r = await runCli(['history-index', '--history', other, '--out', join(home, 'np.index.json')], env);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim()).toMatch(/^strata: .*not-puffin\.json is not a Puffin history/m);
      expect(existsSync(join(home, 'np.index.json'))).toBe(false);
      writeFileSync(join(home, 'markers.json'), 'patterns: nope');
      const m = await runCli(
        [
          'history-index',
          '--history',
          PUFFIN_FIXTURES[0]!,
          '--out',
          join(home, 'm.index.json'),
          '--marker-config',
          join(home, 'markers.json'),
        ],
        env,
      );
      expect(m.code).toBe(2);
      expect(m.stderr).toMatch(/^strata: --marker-config .* cannot be read as JSON/);
    },
  );

  it('has Examples in --help of all three commands', async () => {
    for (const cmd of ['history-index', 'markers', 'topics']) {
      const help = await runCli([cmd, '--help'], env);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toContain('Examples:');
    }
  });
});

describe('strata history-index --full --no-cache', () => {
  it('asks the provider again for every segment instead of reusing the cached replies', async () => {
    const { startScriptedServer } = await import('./support/llm-scripted-server.js');
    const server = await startScriptedServer();
    const reply = '{"summary":"S.","topics":["t"],"keyEntities":[],"importanceScore":0.5}';
    server.script([], { kind: 'ok', text: reply });
    const dir = tempDir('strata-hi-nocache-');
    const runEnv = {
      HOME: dir,
      STRATA_HOME: join(dir, 'data'),
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: server.url,
    };
    // Not spawnSync: the server answers from this process's event loop.
    const runAsync = (args: string[]) => runCliAsync(args, runEnv);
    try {
      const base = [
        'history-index',
        '--history',
        PUFFIN_FIXTURES[0]!,
        '--out',
        join(dir, 'idx.json'),
        '--provider',
        'anthropic',
        '--full',
      ];
      const first = await runAsync(base);
      expect(first.code, first.stderr).toBe(0);
      const calls = server.requests.length;
      expect(calls).toBeGreaterThan(0);
      const cached = await runAsync(base);
      expect(cached.code, cached.stderr).toBe(0);
      expect(server.requests.length).toBe(calls);
      const fresh = await runAsync([...base, '--no-cache']);
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(server.requests.length).toBe(2 * calls);
    } finally {
      await server.close();
    }
  });
});
