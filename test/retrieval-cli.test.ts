// End-to-end: the built CLI on the real fixtures (pinned TZ, NO_COLOR, temp STRATA_HOME), checked against
// reviewed snapshot files in test/snapshots/retrieval/. Ingest, exit codes and error lines go through a
// spawned process; the many snapshot runs call the built CLI's runCli in-process (same entry, same io
// contract) to keep the file fast on a shared machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { CLI, type CliResult, runCli as runBuiltCli } from './support/cli.js';

const ROOT = process.cwd();
const FIXTURES = resolve(ROOT, '../shared/fixtures/real');
const SNAP = (name: string) => join(ROOT, 'test/snapshots/retrieval', name);

let home: string;

async function strata(...args: string[]): Promise<CliResult> {
  return await runBuiltCli(args, { HOME: join(home, 'home'), STRATA_HOME: join(home, 'data') }, { cwd: home });
}

type RunCli = (argv: string[], io: unknown) => Promise<number>;
let runCli: RunCli;

function sink(): Writable & { text: string } {
  const w = new Writable({
    write(chunk, _enc, cb) {
      w.text += String(chunk);
      cb();
    },
  }) as Writable & { text: string };
  w.text = '';
  return w;
}

async function inProcess(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const stdout = sink();
  const stderr = sink();
  const env = { HOME: join(home, 'home'), STRATA_HOME: join(home, 'data'), TZ: 'UTC', NO_COLOR: '1' };
  const code = await runCli(args, { stdout, stderr, env, cwd: home, stderrIsTty: false });
  return { stdout: stdout.text, stderr: stderr.text, code };
}

async function ok(...args: string[]): Promise<string> {
  const r = await inProcess(...args);
  expect(r.stderr.replace(/^no matches\n$/, '')).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'strata-retrieval-e2e-'));
  const sources = ['claude-code', 'codex', 'gemini', 'puffin']
    .map((a) => join(FIXTURES, a))
    .filter((p) => existsSync(p));
  const r = await strata('ingest', ...sources);
  expect(r.code).toBe(0);
  runCli = ((await import(pathToFileURL(CLI).href)) as { runCli: RunCli }).runCli;
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('strata index', () => {
  it('lists sessions newest first with statistics, zero values blank', async () => {
    await expect(await ok('index')).toMatchFileSnapshot(SNAP('index.txt'));
  });

  it('is the same listing as `strata sessions`, with the same flags', async () => {
    expect(await ok('sessions', '--limit', '5', '--agent', 'claude-code')).toBe(
      await ok('index', '--limit', '5', '--agent', 'claude-code'),
    );
  });

  it('filters by agent, project and time, and lists subagents with --all', async () => {
    await expect(await ok('index', '--all', '--project', 'vwestberg/Claude')).toMatchFileSnapshot(
      SNAP('index-all-project.txt'),
    );
    await expect(
      await ok('index', '--agent', 'codex', '--since', '2025-11-01', '--until', '2026-03-01'),
    ).toMatchFileSnapshot(SNAP('index-codex-window.txt'));
  });

  it('rolls subagent statistics into the parent and documents the JSON shape', async () => {
    const rows = JSON.parse(await ok('index', '--json', '--agent', 'claude-code')) as Record<string, unknown>[];
    const parent = rows.find((r) => String(r.id).startsWith('1fb5e404'))!;
    const own = JSON.parse(await ok('index', '--json', '--all', '--agent', 'claude-code')) as Record<string, unknown>[];
    const child = own.find((r) => r.parentId === parent.id)!;
    expect(parent.subagents).toBe(1);
    expect(child.relation).toBe('subagent');
    expect(Object.keys(parent).sort()).toEqual(
      [
        'agent',
        'archived',
        'bashCalls',
        'commitHashes',
        'commits',
        'endedAt',
        'filesTouched',
        'id',
        'linesAdded',
        'linesRemoved',
        'locations',
        'messages',
        'models',
        'parentId',
        'project',
        'prompts',
        'relation',
        'shortId',
        'startedAt',
        'subagents',
        'title',
        'userMessages',
        'webFetches',
        'webSearches',
      ].sort(),
    );
  });
});

describe('strata search', () => {
  it('ranks full-text hits by BM25, grouped by session, citing message numbers', async () => {
    await expect(await ok('search', 'hypridle', 'screensaver')).toMatchFileSnapshot(SNAP('search-bm25.txt'));
  });

  it('supports regular expressions, -l, -c, -m, -C, --in and filters', async () => {
    await expect(await ok('search', '-E', 'hypr(idle|lock)\\.conf', '-c')).toMatchFileSnapshot(
      SNAP('search-regex-count.txt'),
    );
    await expect(await ok('search', '-E', 'TIMEOUT', '-i', '-l', '--agent', 'claude-code')).toMatchFileSnapshot(
      SNAP('search-regex-files.txt'),
    );
    await expect(
      await ok('search', 'useState', '--in', 'tool:Write:input', '-m', '1', '-C', '4', '--after', '2026-03-21T18:00'),
    ).toMatchFileSnapshot(SNAP('search-in-after.txt'));
    await expect(await ok('search', 'commit', '--in', 'user', '--project', 'tmp', '-C', '6')).toMatchFileSnapshot(
      SNAP('search-in-user-project.txt'),
    );
  });

  it('finds CJK text without spaces, parts of identifiers and paths', async () => {
    await expect(await ok('search', '世界')).toMatchFileSnapshot(SNAP('search-cjk.txt'));
    await expect(await ok('search', 'user-flow', '-C', '5')).toMatchFileSnapshot(SNAP('search-path-part.txt'));
    await expect(await ok('search', 'scenarioAgent', '-c')).toMatchFileSnapshot(SNAP('search-identifier-prefix.txt'));
    const mid = JSON.parse(await ok('search', 'enarioAgent', '--json')) as {
      mode: string;
      sessions: { shortId: string }[];
    };
    expect(mid.mode).toBe('substring');
    expect(mid.sessions.map((s) => s.shortId)).toEqual(['9a9eadc8']);
  });

  it('searches the mistyped words of a question by the index spelling, and says so', async () => {
    const typed = await ok('search', 'which session fixed the screensaevr timeuot');
    const right = await ok('search', 'which session fixed the screensaver timeout');
    expect(typed.split('\n').slice(0, 2)).toEqual([
      'searched for: screensaver (for screensaevr), timeout (for timeuot)',
      '',
    ]);
    expect(typed.split('\n')[2]).toBe(right.split('\n')[0]);
    const json = JSON.parse(await ok('search', '--json', 'which session fixed the screensaevr timeuot'));
    expect(json.corrected).toEqual([
      { from: 'screensaevr', to: 'screensaver' },
      { from: 'timeuot', to: 'timeout' },
    ]);
    // Keywords keep their exact precision.
    expect((await inProcess('search', 'screensaevr timeuot')).code).toBe(1);
  });

  it('exits like grep: 0 with hits, 1 with none (saying why on stderr), 2 on errors', async () => {
    const none = await strata('search', 'zqxjkvbw');
    expect([none.code, none.stdout]).toEqual([1, '']);
    expect(none.stderr).toMatch(
      /^strata: no matches \(past 32 KB a tool result is indexed by paths and identifiers; -E scans all text\)\n$/,
    );
    const json = await inProcess('search', 'zqxjkvbw', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ sessions: [] });
    expect((await inProcess('search', 'GitHub repo', '-l')).code).toBe(0);
  });

  it('explains malformed queries in one line with exit code 2', async () => {
    for (const [i, args] of [['"unclosed phrase'], ['-E', '(unclosed'], ['OR'], ['-E', '[z-a]']].entries()) {
      // one spawned process (real exit code and stderr), the rest in-process
      const r = i === 0 ? await strata('search', ...args) : await inProcess('search', ...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^strata: invalid (query|regular expression)/);
    }
  });
});

describe('strata read', () => {
  it('truncates every field to one uniform limit and says how to see more', async () => {
    const out = await ok('read', '5fbb940a', '--target', '300');
    expect(out).toContain('[Limited to 6 words per field. Use --skip 6 for more.]');
    await expect(out).toMatchFileSnapshot(SNAP('read-target.txt'));
    await expect(await ok('read', '5fbb940a', '1-40', '--target', '300', '--skip', '6')).toMatchFileSnapshot(
      SNAP('read-skip.txt'),
    );
  });

  it('reads ranges with truncation adapted to the range, and show/hide selectors', async () => {
    await expect(
      await ok('read', '5fbb940a', '10-18', '--show', 'tool:Bash:result', '--hide', 'tool:Read'),
    ).toMatchFileSnapshot(SNAP('read-range-show-hide.txt'));
    await expect(await ok('read', '1fb5e404', '2-6', '--show', 'thinking', '--full')).toMatchFileSnapshot(
      SNAP('read-full-thinking.txt'),
    );
    const json = JSON.parse(await ok('read', '5fbb940a', '13', '--json')) as {
      from: number;
      to: number;
      messages: { n: number; blocks: { toolName: string }[] }[];
    };
    // Message 13 holds calls whose results are messages 14 and 15: the range keeps them together.
    expect([json.from, json.to, json.messages[0]!.n]).toEqual([13, 15, 13]);
    expect(json.messages[0]!.blocks.map((b) => b.toolName)).toContain('Bash');
  });

  it('marks a failed call whatever the range, and names the subagent a Task/Agent call started', async () => {
    for (const range of ['2', '3', '1-8']) {
      const json = JSON.parse(await ok('read', '5fbb940a', range, '--json')) as {
        messages: { n: number; blocks: { kind: string; isError: boolean }[] }[];
      };
      const call = json.messages.find((m) => m.n === 2)!.blocks.find((b) => b.kind === 'tool_call')!;
      expect(call.isError).toBe(true);
    }
    expect(await ok('read', '1fb5e404', '321')).toContain(
      '→ Agent (subagent session agent-aa9b6813c05338fac: strata read agent-aa9b6813c05338fac): I need direct',
    );
  });

  it('shows edits as unified diffs and a selected tool input in full', async () => {
    const edit = await ok('read', 'c64cc478', '7');
    expect(edit).toContain(
      '→ Edit:\n--- /tmp/tmpw6sk2trg/src/math_utils.py\n+++ /tmp/tmpw6sk2trg/src/math_utils.py\n@@ -1,3 +1,8 @@',
    );
    expect(edit).toContain('+def multiply_numbers(a: int, b: int) -> int:');
    expect(await ok('read', '1fb5e404', '2', '--show', 'tool:Skill:input')).toContain(
      '→ Skill:\n{\n  "skill": "omarchy"\n}',
    );
  });

  it('lists candidates for an ambiguous prefix and rejects unknown ids', async () => {
    const amb = await strata('read', 'agent-a');
    expect(amb.code).toBe(2);
    expect(amb.stderr).toMatch(/^strata: "agent-a" matches \d+ sessions: agent-a/);
    const missing = await inProcess('read', 'ffffffff');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('strata: no session matches "ffffffff" (see `strata index`)\n');
  });
});

describe('strata skill install', () => {
  it('prints the skill and subagent with dynamic context, and writes them atomically', async () => {
    const printed = await ok('skill', 'install', '--print');
    // One plain `!` command (Claude Code refuses separators such as || in them), only in a skill; the
    // agent preloads that skill through its frontmatter.
    expect(printed.match(/!`[^`]*`/g)).toEqual(['!`strata skill context`']);
    expect(printed).toContain('tools: Bash, Read, Glob, Grep\nskills:\n  - strata-context\n');
    await expect(printed.replaceAll(home, '<tmp>')).toMatchFileSnapshot(SNAP('skill-print.txt'));
    const r = await inProcess('skill', 'install', '--project');
    expect(r.code).toBe(0);
    expect(readFileSync(join(home, '.claude/skills/strata-retrieval/SKILL.md'), 'utf8')).toContain(
      'memory archaeologist',
    );
    expect(existsSync(join(home, '.claude/agents/strata-retrieval.md'))).toBe(true);
    expect(readFileSync(join(home, '.claude/skills/strata-context/SKILL.md'), 'utf8')).toContain(
      'user-invocable: false',
    );
  });

  it('prints the skill context with its fallbacks: no git repository, no sessions of this project', async () => {
    const r = await inProcess('skill', 'context');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^## Project history \(git\)\n\(not a git repository, or no commits\)\n/);
    expect(r.stdout).toContain('## Sessions (none stored for this project; the newest of all projects)\nID ');
    expect(r.stdout.match(/^Usage: strata (index|search|read)/gm)).toEqual([
      'Usage: strata index',
      'Usage: strata search',
      'Usage: strata read',
    ]);
    expect(r.stdout.match(/^Examples:/gm)).toHaveLength(3);
  });

  it('has examples in every command help', async () => {
    for (const cmd of [['index'], ['sessions'], ['search'], ['read'], ['skill', 'install'], ['skill', 'context']])
      expect(await ok(...cmd, '--help')).toContain('Examples:');
  });
});
