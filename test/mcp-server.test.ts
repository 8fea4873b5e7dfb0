// End-to-end: the SDK's Client over StdioClientTransport spawning the built `strata mcp` on the real
// fixtures (the default roots point at them through CLAUDE_CONFIG_DIR and CODEX_HOME; temp STRATA_HOME).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { CLI, FIXTURES, holdLock, runCli } from './support/cli.js';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

let base: string;
let client: Client;
let env: Record<string, string>;

type Result = { content: { type: string; text: string }[]; structuredContent?: Record<string, any>; isError?: boolean };

async function call(name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

async function ok(name: string, args: Record<string, unknown>): Promise<Result> {
  const r = await call(name, args);
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  expect(r.content[0]?.type).toBe('text');
  return r;
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'strata-mcp-e2e-'));
  const code = join(base, 'work');
  mkdirSync(join(code, 'src'), { recursive: true });
  writeFileSync(
    join(code, 'src', 'greet.ts'),
    'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n\nexport class Greeter {\n ' +
      ' hello(): string {\n    return greet("you");\n  }\n}\n',
  );
  cpSync(join(FIXTURES, 'markdown/skills/obra-superpowers'), join(code, 'docs'), { recursive: true });
  mkdirSync(join(code, 'assets'));
  writeFileSync(join(code, 'assets', 'logo.png'), 'not really a png');
  writeFileSync(join(base, 'outside.ts'), 'export const secret = 1;\n');
  symlinkSync(join(base, 'outside.ts'), join(code, 'src', 'leak.ts'));
  symlinkSync(base, join(code, 'up'));
  mkdirSync(join(base, 'extra', 'projects', '-tmp-extra'), { recursive: true });
  env = {
    PATH: process.env.PATH ?? '',
    HOME: join(base, 'home'),
    STRATA_HOME: join(base, 'data'),
    CLAUDE_CONFIG_DIR: `${join(FIXTURES, 'claude-code/omarchy-backup')},${join(base, 'extra')}`,
    CODEX_HOME: join(FIXTURES, 'codex'),
    TZ: 'UTC',
    NO_COLOR: '1',
  };
  const built = await runCli(['pack', 'build', '--segment', 'docs'], env, { cwd: code });
  expect(built.code, built.stderr).toBe(0);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--refresh', '0'],
    cwd: code,
    env,
    stderr: 'pipe',
  });
  client = new Client({ name: 'strata-e2e', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('strata mcp (SDK client over stdio)', () => {
  it('names the store it opened, at initialize and with --check', async () => {
    const store = join(base, 'data', 'strata.db');
    expect(client.getInstructions()).toContain(`Store: ${store}.`);
    const check = await runCli(['mcp', '--check'], env);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(
      new RegExp(`^store: ${store.replace(/[.]/g, '\\.')} \\(\\d+ sessions, schema \\d+\\)\\n$`),
    );
  });

  it('lists the tools, each read-only with input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'code_map',
      'code_symbol',
      'logbook',
      'pack_get',
      'pack_search',
      'read',
      'search',
      'sessions',
    ]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description).toBeTruthy();
    }
  });

  it('search ingests the default roots first and cites sessions, message numbers and message tokens', async () => {
    const r = await ok('search', { query: 'hyprland', limit: 2 });
    const s = r.structuredContent!;
    expect(s.mode).toBe('fts');
    expect(s.sessions.length).toBeGreaterThan(0);
    const hit = s.sessions[0].hits[0];
    expect(hit.message).toBeGreaterThan(0);
    expect(hit.messageTokens).toBeGreaterThan(0);
    expect(s.tokens).toBeGreaterThan(0);
    expect(r.content[0]!.text).toContain(`#${hit.message} `);
    // Compact for the model: one id, no scores or times; more hits are asked for with this tool's arguments.
    expect(Object.keys(hit).sort()).toEqual(['field', 'message', 'messageTokens', 'snippet']);
    expect(s.sessions[0]).not.toHaveProperty('shortId');
    expect(r.content[0]!.text).toMatch(/… \d+ more \(search again with session: "[^"]+", maxPerSession: \d+\)/);
    expect(r.content[0]!.text).not.toContain('strata search');
  });

  it('sessions lists the store with statistics and filters', async () => {
    const r = await ok('sessions', { agents: ['codex'], limit: 5 });
    const sessions = r.structuredContent!.sessions as { agent: string; messages: number }[];
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((x) => x.agent === 'codex')).toBe(true);
    expect(r.content[0]!.text).toMatch(/^ID\s+DATE\s+AGENT/);
  });

  it('read opens a range of a session by unique prefix', async () => {
    const r = await ok('read', { session: '1fb5e404', range: '1-3' });
    expect(r.structuredContent!.session.externalId).toBe('1fb5e404-604d-4a2b-baf1-3beb42a67371');
    expect(r.structuredContent!.messages.map((m: { n: number }) => m.n)).toEqual([1, 2, 3]);
    expect(r.content[0]!.text).toContain('Messages 1-3 of');
  });

  it('logbook says how to build one, then returns the stored events with their citations', async () => {
    const project = '/home/vwestberg/Claude';
    const none = await ok('logbook', { project });
    expect(none.structuredContent!.workspace).toBeNull();
    expect(none.content[0]!.text).toContain(`strata logbook --project ${project}`);
    const built = await runCli(['logbook', '--project', project], env);
    expect(built.code, built.stderr).toBe(0);
    const r = await ok('logbook', { project, budget: 400 });
    expect(r.structuredContent!.workspace).toBe(project);
    const events = r.structuredContent!.events as { session: string; message: number }[];
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      // The project's two sessions, or a subagent of one.
      expect(e.session).toMatch(
        /^(1fb5e404-604d-4a2b-baf1-3beb42a67371|5fbb940a-c7f3-404d-bf66-a028fcc250ec|agent-[0-9a-f]+)$/,
      );
      expect(e.message).toBeGreaterThan(0);
    }
    expect(r.structuredContent!.tokens).toBeLessThanOrEqual(400);
  });

  it('an ambiguous session prefix is an error result naming the candidates', async () => {
    const r = await call('read', { session: '1' });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/^strata: "1" matches 2 sessions: 1a0dd4c9-.* \(codex\); 1fb5e404-/);
    expect(r.content[0]!.text).not.toContain('\n');
  });

  it('bad arguments are error results, not crashes', async () => {
    const r = await call('search', { query: 3 });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/Invalid arguments for tool search/);
    const range = await call('read', { session: '1fb5e404', range: 'x-y' });
    expect(range.isError).toBe(true);
    const regex = await call('search', { query: '(', regex: true });
    expect(regex.isError).toBe(true);
    expect(regex.content[0]!.text).toMatch(/^strata: invalid regular expression/);
  });

  it('pack_search and pack_get read a context pack under the root, pack_get within a budget', async () => {
    const found = await ok('pack_search', { query: 'test driven development', segment: 'docs', limit: 3 });
    const ids = (found.structuredContent!.hits as { id: string }[]).map((h) => h.id);
    expect(ids.length).toBeGreaterThan(1);
    const all = await ok('pack_get', { ids, segment: 'docs' });
    expect(all.structuredContent!.chunks.map((c: { id: string }) => c.id)).toEqual(ids);
    // The budget covers each chunk's header line as printed, not only its text.
    const first = all.structuredContent!.chunks[0].tokens as number;
    const cut = await ok('pack_get', { ids, segment: 'docs', budget: first + 60 });
    expect(cut.structuredContent!.usedTokens).toBeGreaterThan(first);
    expect(cut.structuredContent!.usedTokens).toBeLessThanOrEqual(first + 60);
    expect(cut.structuredContent!.omitted).toEqual(ids.slice(1));
    expect(cut.structuredContent!.truncated).toBe(true);
  });

  it('code_map and code_symbol map code under the root', async () => {
    const map = await ok('code_map', { path: 'src', budget: 500 });
    expect(map.structuredContent!.tokens).toBeLessThanOrEqual(500);
    expect(map.structuredContent!.files.map((f: { path: string }) => f.path)).toEqual(['src/greet.ts']);
    const symbol = await ok('code_symbol', { names: ['Greeter.hello', 'nothing'], path: 'src' });
    expect(symbol.content[0]!.text).toContain('return greet("you");');
    expect(symbol.structuredContent!.missing).toEqual(['nothing']);
    const none = await call('code_symbol', { names: ['nothing'] });
    expect(none.isError).toBe(true);
    const empty = await ok('code_map', { path: 'assets' });
    expect(empty.structuredContent!.notes).toEqual([expect.stringMatching(/assets: no files to map \(1 binary\)$/)]);
    expect(empty.content[0]!.text).toMatch(/assets: no files to map \(1 binary\)\n$/);
  });

  it('refuses paths that escape the roots: "..", outside absolute paths, escaping symbolic links', async () => {
    for (const [tool, args] of [
      ['code_map', { path: '../outside.ts' }],
      ['code_map', { path: join(base, 'outside.ts') }],
      ['code_symbol', { names: ['secret'], path: 'src/leak.ts' }],
      ['code_map', { path: 'up' }],
      ['pack_search', { query: 'x', segment: '..' }],
      ['pack_get', { ids: ['a'], segment: base }],
    ] as const) {
      const r = await call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(r.content[0]!.text).toMatch(
        /^strata: path ".*" (is outside the allowed roots|resolves outside the allowed roots through a symbolic link)/,
      );
    }
  });

  it('answers from what is stored while another writer holds the lock, and catches up after', async () => {
    const transcript = join(base, 'extra', 'projects', '-tmp-extra', '0f0f0f0f-0000-4000-8000-000000000001.jsonl');
    const line = (uuid: string, text: string) =>
      JSON.stringify({
        type: 'user',
        uuid,
        sessionId: '0f0f0f0f-0000-4000-8000-000000000001',
        cwd: '/tmp/extra',
        timestamp: '2026-01-01T00:00:00.000Z',
        message: { role: 'user', content: text },
      }) + '\n';
    appendFileSync(transcript, line('u1', 'zanzibarquokka appears here'));
    const lock = join(base, 'data', 'strata.db.lock');
    const holder = await holdLock(lock, 'strata ingest');
    try {
      const held = await ok('search', { query: 'zanzibarquokka' });
      expect(held.structuredContent!.sessions).toEqual([]);
    } finally {
      await holder.stop();
    }
    const after = await ok('search', { query: 'zanzibarquokka' });
    expect(after.structuredContent!.sessions.map((s: { id: string }) => s.id)).toEqual([
      '0f0f0f0f-0000-4000-8000-000000000001',
    ]);
  });
});
