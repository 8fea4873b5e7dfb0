// End to end with the built CLI: `strata ingest` over every agent's default roots in a temp HOME,
// `--agent` filtering, `strata sources --json`, usage errors, and the whole real fixture tree.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdapterContractFixtures } from './support/adapter-contract.js';
import { aiderContractFixture } from './support/contract-fixtures/aider.js';
import { claudeCodeContractFixture } from './support/contract-fixtures/claude-code.js';
import { codexContractFixture } from './support/contract-fixtures/codex.js';
import { geminiContractFixture } from './support/contract-fixtures/gemini.js';
import { opencodeContractFixture } from './support/contract-fixtures/opencode.js';
import { puffinContractFixture } from './support/contract-fixtures/puffin.js';
import { clineContractFixture } from './support/contract-fixtures/cline.js';
import { copilotCliContractFixture } from './support/contract-fixtures/copilot-cli.js';
import { specstoryContractFixture } from './support/contract-fixtures/specstory.js';
import { vscodeCopilotContractFixture } from './support/contract-fixtures/vscode-copilot.js';
import { cursorContractFixture } from './support/contract-fixtures/cursor.js';
import { crushContractFixture } from './support/contract-fixtures/crush.js';
import { zedContractFixture } from './support/contract-fixtures/zed.js';
import { warpContractFixture } from './support/contract-fixtures/warp.js';
import { qwenContractFixture } from './support/contract-fixtures/qwen.js';
import { kimiContractFixture } from './support/contract-fixtures/kimi.js';
import { openclawContractFixture } from './support/contract-fixtures/openclaw.js';
import { piContractFixture } from './support/contract-fixtures/pi.js';
import { continueContractFixture } from './support/contract-fixtures/continue.js';
import { ampContractFixture } from './support/contract-fixtures/amp.js';
import { gooseContractFixture } from './support/contract-fixtures/goose.js';
import { droidContractFixture } from './support/contract-fixtures/droid.js';
import { FIXTURES, REPO, runCli, tempDir } from './support/cli.js';

interface AgentStats {
  agent: string;
  sessions: number;
  messages: number;
}
interface SourcesRow {
  agent: string;
  roots: { path: string; exists: boolean; files: number }[];
  formats: string[];
  files: number;
  sessions: number;
  messages: number;
}

/** A temp HOME holding one minimal session per agent at its default location (the contract fixtures). */
function makeHome(): { env: Record<string, string>; roots: Record<string, string> } {
  const home = tempDir('strata-sources-home-');
  const projects = join(home, 'projects');
  const roots: Record<string, string> = {
    'claude-code': join(home, '.claude', 'projects'),
    codex: join(home, '.codex'),
    gemini: join(home, '.gemini', 'tmp'),
    opencode: join(home, '.local', 'share', 'opencode'),
    aider: projects,
    puffin: projects,
    cline: join(home, '.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev'),
    'copilot-cli': join(home, '.copilot'),
    specstory: projects,
    'vscode-copilot': join(home, '.config', 'Code', 'User', 'workspaceStorage'),
    cursor: join(home, '.config', 'Cursor', 'User'),
    crush: join(home, '.local', 'share', 'crush'),
    zed: join(home, '.local', 'share', 'zed', 'threads'),
    warp: join(home, '.local', 'state', 'warp-terminal'),
    qwen: join(home, '.qwen', 'projects'),
    kimi: join(home, '.kimi', 'sessions'),
    openclaw: join(home, '.openclaw', 'agents'),
    pi: join(home, '.pi', 'agent', 'sessions'),
    continue: join(home, '.continue', 'sessions'),
    amp: join(home, '.local', 'share', 'amp', 'threads'),
    goose: join(home, '.local', 'share', 'goose', 'sessions'),
    droid: join(home, '.factory', 'sessions'),
  };
  const place = (root: string, fixture: AdapterContractFixtures) => {
    const path = join(root, fixture.sessionPath);
    mkdirSync(dirname(path), { recursive: true });
    fixture.minimal.write(path);
  };
  place(roots['claude-code']!, claudeCodeContractFixture);
  place(roots.codex!, codexContractFixture);
  place(roots.gemini!, geminiContractFixture);
  place(roots.opencode!, opencodeContractFixture);
  place(projects, aiderContractFixture);
  place(projects, puffinContractFixture);
  // The Cline fixture's session path starts with the extension folder; its root is that folder.
  place(dirname(roots.cline!), clineContractFixture);
  place(roots['copilot-cli']!, copilotCliContractFixture);
  place(projects, specstoryContractFixture);
  place(roots['vscode-copilot']!, vscodeCopilotContractFixture);
  place(roots.cursor!, cursorContractFixture);
  place(roots.crush!, crushContractFixture);
  place(dirname(roots.zed!), zedContractFixture);
  place(roots.warp!, warpContractFixture);
  place(roots.qwen!, qwenContractFixture);
  place(roots.kimi!, kimiContractFixture);
  place(roots.openclaw!, openclawContractFixture);
  place(roots.pi!, piContractFixture);
  // The Continue fixture's session path starts with the sessions folder; its root is the folder above.
  place(dirname(roots.continue!), continueContractFixture);
  place(roots.amp!, ampContractFixture);
  // The Goose fixture's session path starts with the sessions folder; its root is the folder above.
  place(dirname(roots.goose!), gooseContractFixture);
  place(roots.droid!, droidContractFixture);
  const env = {
    HOME: home,
    STRATA_HOME: join(home, 'strata-data'),
    STRATA_AIDER_PATHS: projects,
    STRATA_PUFFIN_PATHS: projects,
    STRATA_SPECSTORY_PATHS: projects,
  };
  return { env, roots };
}

/** Messages per agent in the minimal contract fixtures (one session each). */
const MINIMAL_MESSAGES: Record<string, number> = {
  'claude-code': claudeCodeContractFixture.minimal.messages,
  codex: codexContractFixture.minimal.messages,
  gemini: geminiContractFixture.minimal.messages,
  aider: aiderContractFixture.minimal.messages,
  opencode: opencodeContractFixture.minimal.messages,
  puffin: puffinContractFixture.minimal.messages,
  cline: clineContractFixture.minimal.messages,
  'copilot-cli': copilotCliContractFixture.minimal.messages,
  specstory: specstoryContractFixture.minimal.messages,
  'vscode-copilot': vscodeCopilotContractFixture.minimal.messages,
  cursor: cursorContractFixture.minimal.messages,
  crush: crushContractFixture.minimal.messages,
  zed: zedContractFixture.minimal.messages,
  warp: warpContractFixture.minimal.messages,
  qwen: qwenContractFixture.minimal.messages,
  kimi: kimiContractFixture.minimal.messages,
  openclaw: openclawContractFixture.minimal.messages,
  pi: piContractFixture.minimal.messages,
  continue: continueContractFixture.minimal.messages,
  amp: ampContractFixture.minimal.messages,
  goose: gooseContractFixture.minimal.messages,
  droid: droidContractFixture.minimal.messages,
};

async function json<T>(args: string[], env: Record<string, string>): Promise<T> {
  const res = await runCli(args, env, { cwd: REPO });
  expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(res.stdout) as T;
}

const byAgent = (stats: { byAgent: AgentStats[] }) =>
  Object.fromEntries(stats.byAgent.map((a) => [a.agent, { sessions: a.sessions, messages: a.messages }]));

describe('strata ingest / sources over default roots', () => {
  let home: ReturnType<typeof makeHome>;
  beforeAll(() => {
    home = makeHome();
  });

  it('discovers every agent under HOME and the configured project folders', async () => {
    const report = await json<{
      roots: { agent: string; root: string }[];
      filesIngested: number;
      filesFailed: number;
      problems: unknown[];
    }>(['ingest', '--json'], home.env);
    expect(report.problems).toEqual([]);
    expect(report.filesFailed).toBe(0);
    expect(report.filesIngested).toBe(Object.keys(MINIMAL_MESSAGES).length);
    expect(report.roots.map((r) => `${r.agent} ${r.root}`).sort()).toEqual(
      Object.entries(home.roots)
        .map(([a, r]) => `${a} ${r}`)
        .sort(),
    );
    const stats = await json<{ byAgent: AgentStats[] }>(['stats', '--json'], home.env);
    expect(byAgent(stats)).toEqual(
      Object.fromEntries(Object.entries(MINIMAL_MESSAGES).map(([a, m]) => [a, { sessions: 1, messages: m }])),
    );
  });

  it('lists each agent with its roots and counts in `strata sources --json`', async () => {
    const rows = await json<SourcesRow[]>(['sources', '--json'], home.env);
    expect(rows.map((r) => r.agent).sort()).toEqual(Object.keys(MINIMAL_MESSAGES).sort());
    for (const row of rows) {
      expect({ agent: row.agent, files: row.files, sessions: row.sessions, messages: row.messages }).toEqual({
        agent: row.agent,
        files: 1,
        sessions: 1,
        messages: MINIMAL_MESSAGES[row.agent],
      });
      expect(row.roots.filter((r) => r.exists).map((r) => [r.path, r.files])).toEqual([[home.roots[row.agent], 1]]);
      expect(row.formats.length).toBeGreaterThan(0);
    }
    const claude = rows.find((r) => r.agent === 'claude-code')!;
    expect(claude.roots).toContainEqual({
      path: join(home.env.HOME!, '.config', 'claude', 'projects'),
      exists: false,
      files: 0,
    });
  });

  it('ingests only the agents named with --agent', async () => {
    const env = { ...home.env, STRATA_HOME: tempDir('strata-sources-only-') };
    const report = await json<{ roots: { agent: string }[]; filesIngested: number }>(
      ['ingest', '--agent', 'codex', '--json'],
      env,
    );
    expect(report.roots.map((r) => r.agent)).toEqual(['codex']);
    expect(report.filesIngested).toBe(1);
    expect(byAgent(await json<{ byAgent: AgentStats[] }>(['stats', '--json'], env))).toEqual({
      codex: { sessions: 1, messages: MINIMAL_MESSAGES.codex },
    });
    const two = await json<{ roots: { agent: string }[]; filesIngested: number; filesSkipped: number }>(
      ['ingest', '--agent', 'gemini,codex', '--json'],
      env,
    );
    expect(two.roots.map((r) => r.agent).sort()).toEqual(['codex', 'gemini']);
    expect({ ingested: two.filesIngested, skipped: two.filesSkipped }).toEqual({ ingested: 1, skipped: 1 });
  });

  it('rejects an unknown --agent as a usage error (exit 2, one line on stderr, nothing on stdout)', async () => {
    const env = { ...home.env, STRATA_HOME: tempDir('strata-sources-bad-') };
    const res = await runCli(['ingest', '--agent', 'foo'], env, { cwd: REPO });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/unknown agent "foo"/);
    expect((await runCli(['ingest', '--agent', 'codex,foo', '--json'], env, { cwd: REPO })).code).toBe(2);
  });
});

/** Every file below `dir`, relative to FIXTURES. */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [relative(FIXTURES, full)];
  });
}

/** Sidecars read together with their transcript (Claude Code subagent meta) or on purpose never read (index files). */
const SIDECAR = /(^|\/)(agent-[^/]+\.meta\.json|sessions-index\.json)$/;

/**
 * Agent files outside the places discovery looks (other names, not under .puffin/): inside a named
 * folder every adapter still gets to detect them; named one by one, each is ingested or reported too.
 */
const OUTSIDE_DISCOVERY_PLACES = [
  'aider/aider-repo/tests/fixtures/chat-history.md', // an Aider chat history under another name
  'aider/luvatrix/.aider.input.history', // Aider's prompt log
  'opencode/hstry/session.md', // a Markdown export of an OpenCode session
  'puffin/jdubray-cosa/history.early.json', // a Puffin history, renamed and outside .puffin/
  'puffin/jdubray-puffin-todo-list/history.json', // a Puffin history outside .puffin/
];

function puffinRoots(file: string): number {
  const doc = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as {
    branches: Record<string, { prompts: { id: string; parentId: string | null }[] }>;
  };
  const prompts = Object.values(doc.branches).flatMap((b) => b.prompts);
  const ids = new Set(prompts.map((p) => p.id));
  return prompts.filter((p) => p.parentId === null || !ids.has(p.parentId)).length;
}

describe('strata ingest on the whole real fixture tree', () => {
  const env = { HOME: tempDir('strata-real-home-'), STRATA_HOME: tempDir('strata-real-store-') };
  type Report = {
    filesFailed: number;
    problems: { path: string; reason: string }[];
    notSession: { path: string; reason: string }[];
  };
  let report: Report;
  beforeAll(async () => {
    report = await json<Report>(['ingest', '../shared/fixtures/real', '--json'], env);
  });

  it('ingests without failures, with the per-agent session counts of the adapters’ own fixture tests', async () => {
    expect(report.filesFailed).toBe(0);
    expect(report.problems).toEqual([]);
    const stats = byAgent(await json<{ byAgent: AgentStats[] }>(['stats', '--json'], env));
    // claude-code: src/sources/claude-code/ingest.test.ts (12 main sessions + 16 subagents);
    // codex 8 / gemini 3: src/sources/codex/ingest.test.ts; aider: the luvatrix history (1) + aider's own
    // test fixture; puffin: one session per thread root of both histories.
    const aider =
      1 + aiderSessions(readFileSync(join(FIXTURES, 'aider/aider-repo/tests/fixtures/chat-history.md'), 'utf8'));
    const puffin =
      puffinRoots('puffin/jdubray-puffin-todo-list/history.json') +
      puffinRoots('puffin/jdubray-cosa/history.early.json');
    expect(Object.fromEntries(Object.entries(stats).map(([a, s]) => [a, s.sessions]))).toEqual({
      'claude-code': 28,
      codex: 8,
      gemini: 3,
      aider,
      puffin,
    });
    expect(stats['claude-code']!.messages).toBe(1960);
  });

  it('accounts for every agent file: ingested, or listed as not a session / a problem with a reason', () => {
    const db = new Database(join(env.STRATA_HOME, 'strata.db'), { readonly: true });
    const sources = db.prepare('SELECT path, status, status_reason FROM sources').all() as {
      path: string;
      status: string;
      status_reason: string | null;
    }[];
    db.close();
    const ingested = new Set(sources.filter((s) => s.status === 'active').map((s) => relative(FIXTURES, s.path)));
    const notSession = new Map(report.notSession.map((n) => [relative(FIXTURES, n.path), n.reason]));
    const problems = new Map(report.problems.map((p) => [relative(FIXTURES, p.path), p.reason]));
    for (const reason of [...notSession.values(), ...problems.values()]) expect(reason.length).toBeGreaterThan(10);
    for (const s of sources.filter((x) => x.status === 'not_session'))
      expect(notSession.get(relative(FIXTURES, s.path))).toBe(s.status_reason);
    const agentFiles = ['claude-code', 'codex', 'gemini', 'aider', 'opencode', 'puffin']
      .flatMap((a) => walk(join(FIXTURES, a)))
      .filter((f) => !SIDECAR.test(f));
    const unaccounted = agentFiles.filter((f) => !ingested.has(f) && !notSession.has(f) && !problems.has(f));
    expect(unaccounted).toEqual([]);
    expect(
      [...notSession.keys()]
        .filter((f) => !SIDECAR.test(f) && !f.startsWith('markdown/') && f !== 'SOURCES.tsv')
        .sort(),
    ).toEqual([
      'aider/luvatrix/.aider.input.history',
      'claude-code/history/akai0301-nl2sql-langgraph.history.jsonl',
      'gemini/MyDotFiles-HyDE/tmp/b899de0d/checkpoint-InskapeNotes.json',
      'gemini/MyDotFiles-HyDE/tmp/b899de0d/logs.json',
      'gemini/vibe-coding-comparison/tmp/ticketing-vc/logs.json',
      'opencode/hstry/session.md',
    ]);
    for (const f of [...notSession.keys()].filter((k) => SIDECAR.test(k)))
      expect(notSession.get(f)).toMatch(/^Claude Code (subagent metadata|sessions index)/);
  });

  it('ingests or reports each file folder discovery passes over when it is named on the command line', async () => {
    const named = { HOME: env.HOME, STRATA_HOME: tempDir('strata-real-named-') };
    const files = OUTSIDE_DISCOVERY_PLACES.map((f) => join('../shared/fixtures/real', f));
    const res = await json<Report & { filesIngested: number }>(['ingest', ...files, '--json'], named);
    const listed = new Map([...res.notSession, ...res.problems].map((p) => [relative(FIXTURES, p.path), p.reason]));
    expect(res.filesIngested + listed.size).toBe(OUTSIDE_DISCOVERY_PLACES.length);
    for (const reason of listed.values()) expect(reason).toMatch(/\w{4,}/);
    // Expected sessions, computed from the raw files as the adapters' tests do.
    const stats = byAgent(await json<{ byAgent: AgentStats[] }>(['stats', '--json'], named));
    expect(stats.puffin?.sessions).toBe(
      puffinRoots('puffin/jdubray-puffin-todo-list/history.json') +
        puffinRoots('puffin/jdubray-cosa/history.early.json'),
    );
    expect(stats.aider?.sessions).toBe(
      aiderSessions(readFileSync(join(FIXTURES, 'aider/aider-repo/tests/fixtures/chat-history.md'), 'utf8')),
    );
  });
});

/** Sessions of an Aider history: header-delimited sections (and the text before the first header) with content. */
function aiderSessions(text: string): number {
  const lines = text.split('\n');
  const headers = lines.flatMap((l, i) => (l.startsWith('# aider chat started at ') ? [i] : []));
  const starts = [0, ...headers.map((i) => i + 1)];
  return starts.filter((start, n) => {
    const end = n + 1 < starts.length ? starts[n + 1]! - 1 : lines.length;
    return lines.slice(start, end).some((l) => l.trim() !== '' && !/^-\*- mode:.*-\*-\s*$/.test(l));
  }).length;
}
