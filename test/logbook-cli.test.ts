// End-to-end tests of `strata logbook` on the real Claude Code and Codex fixtures: every cited message
// opens with the read code and holds the event, every output validates, nothing new makes 0 calls and
// leaves the file byte-identical; bad input (not a logbook, no sessions) and show/list.
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateLogbook, type LogbookDocument } from '../src/core/logbook/index.js';
import { readSession } from '../src/core/retrieval/read-session.js';
import { openStore } from '../src/store/db.js';
import { FIXTURES, REPO, runCli, tempDir } from './support/cli.js';

/** A project of the fixtures with two conversations and several events in one month. */
const STREAMING = '/Users/testuser/Documents/GitHub/projects/example-project/.worktrees/streaming';
let home: string;
let env: Record<string, string>;
const squash = (s: string): string =>
  s
    .replace(/[*`#_]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();

beforeAll(async () => {
  home = tempDir('strata-logbook-cli-');
  env = { STRATA_HOME: join(home, 'data'), HOME: home };
  const codexExtra = join(REPO, 'test', 'fixtures', 'real-extra', 'codex');
  const ingested = await runCli(['ingest', join(FIXTURES, 'claude-code'), join(FIXTURES, 'codex'), codexExtra], env);
  expect(ingested.code, ingested.stderr).toBe(0);
});

describe('strata logbook on the real fixtures', () => {
  it('builds a valid logbook whose every event opens with strata read at the cited message and time', async () => {
    const out = join(home, 'all.json');
    const run = await runCli(['logbook', '--project', '/', '--out', out, '--max-events', '500'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${out}\n`);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as LogbookDocument;
    expect(validateLogbook(doc)).toEqual([]);
    expect(doc.timeline.length).toBeGreaterThanOrEqual(10);
    expect(new Set(doc.timeline.map((e) => e.source.agent))).toEqual(new Set(['claude-code', 'codex']));
    const store = openStore(join(home, 'data', 'strata.db'));
    try {
      for (const e of doc.timeline) {
        const read = readSession(store.db, e.source.session, {
          range: String(e.source.message),
          full: true,
          show: [{ category: 'tool', raw: 'tool' }],
        });
        // A range widens to keep a tool call with its result, so find the cited message among those read.
        const message = read.messages.find((m) => m.n === e.source.message)!;
        expect(message, `message ${e.source.message} of ${e.source.session}`).toBeDefined();
        expect(new Date(message.timestamp!).toISOString()).toBe(e.timestamp);
        // A failed command's bug quotes the error its result holds; other events quote their message.
        const quoted = /^`[^`]+` failed: /.test(e.content) ? e.content.replace(/^`[^`]+` failed: /, '') : e.content;
        const words = squash(quoted.replace(/…$/, '')).split(' ').slice(0, 4).join(' ');
        expect(
          squash(message.blocks.map((b) => b.text).join(' ')),
          `${e.source.session} ${e.source.message}`,
        ).toContain(words);
      }
    } finally {
      store.close();
    }
  });

  it('nothing new: 0 calls and the file left byte-identical; json, markdown and text formats', async () => {
    const out = join(home, 'streaming.json');
    const project = ['--project', STREAMING];
    const first = await runCli(['logbook', ...project, '--out', out, '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ changed: true, conversations: 2, processed: 2 });
    const bytes = readFileSync(out);
    const mtime = statSync(out).mtimeMs;
    const again = await runCli(['logbook', ...project, '--out', out, '--json'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ changed: false, calls: 0, continuedFrom: out });
    expect(readFileSync(out).equals(bytes)).toBe(true);
    expect(statSync(out).mtimeMs).toBe(mtime);
    const markdown = await runCli(['logbook', ...project, '--format', 'markdown'], env);
    expect(markdown.stdout.startsWith(`# Logbook: ${STREAMING}\n`)).toBe(true);
    expect(markdown.stdout).toMatch(
      /\n## 2025-09\n\n- `(DECISION|FACT|BUG)` 2025-09-\d\d .+ — `strata read [0-9a-f-]+ \d+`\n/,
    );
    const text = await runCli(['logbook', ...project], env);
    expect(text.stdout.startsWith(`=== Logbook: ${STREAMING} ===\nGenerated: `)).toBe(true);
    expect(text.stderr).toContain('nothing new; logbook unchanged');
  });

  it('--history FILE builds the logbook of a Puffin history, cited to its stored sessions', async () => {
    const history = join(FIXTURES, 'puffin', 'jdubray-puffin-todo-list', 'history.json');
    const out = join(home, 'puffin.json');
    const run = await runCli(['logbook', '--history', history, '--out', out], env);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as LogbookDocument;
    expect(validateLogbook(doc)).toEqual([]);
    expect(doc.workspace).toBe(`history:${history}`);
    expect(doc.timeline.length).toBeGreaterThan(0);
    for (const e of doc.timeline) {
      expect(e.source.agent).toBe('puffin');
      const read = await runCli(['read', e.source.session, String(e.source.message), '--json'], env);
      expect(read.code, read.stderr).toBe(0);
      expect(new Date(JSON.parse(read.stdout).messages[0].timestamp).toISOString()).toBe(e.timestamp);
    }
    expect(
      JSON.parse((await runCli(['logbook', '--history', history, '--out', out, '--json'], env)).stdout),
    ).toMatchObject({
      changed: false,
      calls: 0,
    });
  });

  it('--continue-from a file that is not a logbook exits 2 and leaves it untouched', async () => {
    const bad = join(home, 'notes.json');
    writeFileSync(bad, '{"hello": "world"}\n');
    const run = await runCli(['logbook', '--project', '/', '--continue-from', bad], env);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('is not a logbook');
    expect(readFileSync(bad, 'utf8')).toBe('{"hello": "world"}\n');
    const other = join(home, 'streaming.json');
    const before = readFileSync(other);
    const wrong = await runCli(['logbook', '--project', '/home/vwestberg/Claude', '--continue-from', other], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      new RegExp(
        /is the logbook of \/Users\/testuser\/Documents\/GitHub\/projects\/example-project\/\.worktrees\/streaming, /
          .source +
          /not of \/home\/vwestberg\/Claude; i/.source +
          /t was left untouched/.source,
      ),
    );
    expect(readFileSync(other).equals(before)).toBe(true);
  });

  it('a workspace with no sessions gets an empty logbook, exit 0, and a clear line', async () => {
    const out = join(home, 'empty.json');
    const run = await runCli(['logbook', '--project', join(home, 'nowhere-project'), '--out', out], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/no sessions for .*nowhere-project in the store; the logbook is empty/);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as LogbookDocument;
    expect(validateLogbook(doc)).toEqual([]);
    expect(doc.timeline).toEqual([]);
    expect(doc.source_range.from).toBe(doc.generated_at);
  });

  it('show prints the stored logbook newest first within a budget; list names the workspaces', async () => {
    const project = STREAMING;
    expect((await runCli(['logbook', '--project', project], env)).code).toBe(0);
    const all = JSON.parse((await runCli(['logbook', 'show', '--project', project, '--json'], env)).stdout);
    expect(all.events.length).toBeGreaterThanOrEqual(2);
    const times = all.events.map((e: { timestamp: string }) => e.timestamp);
    expect(times).toEqual([...times].sort().reverse());
    const cut = await runCli(['logbook', 'show', '--project', project, '--budget', '120'], env);
    expect(cut.code).toBe(0);
    expect(cut.stdout.split('\n')[0]?.startsWith(`Project logbook: ${STREAMING} `)).toBe(true);
    expect(cut.stderr).toMatch(/logbook: \d+ of \d+ events shown \(token budget\)/);
    const bugs = JSON.parse(
      (await runCli(['logbook', 'show', '--project', project, '--type', 'bug', '--json'], env)).stdout,
    );
    expect(bugs.events.every((e: { type: string }) => e.type === 'bug')).toBe(true);
    const list = await runCli(['logbook', 'list'], env);
    expect(list.stdout.split('\n')[0]).toMatch(/^EVENTS\s+SIZE\s+GENERATED\s+KIND\s+WORKSPACE$/);
    expect(list.stdout).toContain(STREAMING);
    expect((await runCli(['logbook', 'show', '--type', 'opinion'], env)).code).toBe(2);
    expect(existsSync(join(home, 'data', 'strata.db'))).toBe(true);
  });

  it('has Examples in --help of logbook, logbook show and logbook list', async () => {
    for (const args of [['logbook'], ['logbook', 'show'], ['logbook', 'list']]) {
      const help = await runCli([...args, '--help'], env);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Examples:');
    }
  });
});
