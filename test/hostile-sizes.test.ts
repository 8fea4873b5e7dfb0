// Hostile sizes: one 100 MB tool output (ingest memory; the web API, an HTML export and MCP read bounded,
// the rest readable) and huge search queries (CLI and MCP answer at once with one line). Data is generated
// here, in a temp folder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, REPO, runCli, tempDir } from './support/cli.js';
import { BOUND_MS, runBounded } from './support/bounded-run.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
const SID = '11111111-2222-4333-8444-555555555555';
const MB = 1024 * 1024;

/** A 100 MB tool output: numbered build lines. */
function bigOutput(): string {
  const lines: string[] = [];
  for (let i = 0; i < 20_000; i++) lines.push(`${String(i).padStart(8, '0')} build step ${i % 97} compiled m${i}.ts\n`);
  const block = lines.join('');
  return block.repeat(Math.ceil((100 * MB) / block.length)).slice(0, 100 * MB);
}

function transcript(output: string): string {
  const base = { isSidechain: false, userType: 'external', cwd: '/work/big', sessionId: SID, version: '2.1.97' };
  const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
  return `${[
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: at(0),
      message: { role: 'user', content: 'build' },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: at(1),
      message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u2',
      parentUuid: 'a1',
      timestamp: at(2),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: output }] },
    },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n')}\n`;
}

let root: string;
let env: Record<string, string>;
let output: string;

beforeAll(async () => {
  root = tempDir('strata-hostile-sizes-');
  env = { HOME: join(root, 'home'), STRATA_HOME: join(root, 'data') };
  output = bigOutput();
  writeFileSync(join(root, `${SID}.jsonl`), transcript(output));
  // The CLI run by a wrapper that records its peak RSS (KB) when it exits.
  writeFileSync(
    join(root, 'rss.mjs'),
    `import { writeFileSync } from 'node:fs';
const out = ${JSON.stringify(join(root, 'rss.txt'))};
process.on('exit', () => writeFileSync(out, String(process.resourceUsage().maxRSS)));
const { main } = await import(${JSON.stringify(CLI)});
main();
`,
  );
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('one 100 MB tool output', () => {
  it('is ingested under 300 MB peak RSS, its first 4 MB kept with a note naming the source line', async () => {
    const r = await runCli(['ingest', join(root, `${SID}.jsonl`)], env, { entry: join(root, 'rss.mjs') });
    expect(r.code, r.stderr).toBe(0);
    expect(Number(readFileSync(join(root, 'rss.txt'), 'utf8'))).toBeLessThanOrEqual(300 * 1024);
    const read = await runCli(['read', SID.slice(0, 8), '3', '--show', 'tool', '--full'], env);
    expect(read.stdout).toContain(output.slice(0, 1000));
    expect(read.stdout).toMatch(
      /…\[strata: [\d,]+ more bytes of this text were not stored; the whole text is line 3 of/,
    );
    expect(read.stdout.length).toBeLessThan(5 * MB);
  }, 60_000);

  it('in a Gemini session file (one JSON document) is cut the same way as it is read', async () => {
    const dir = join(root, 'gemini-home', '.gemini', 'tmp', 'abc', 'chats');
    mkdirSync(dir, { recursive: true });
    const at = '2026-01-01T00:00:00.000Z';
    const call = { id: 'c1', name: 'run_shell_command', args: { command: 'make' }, status: 'success', timestamp: at };
    const response = { functionResponse: { id: 'c1', name: 'run_shell_command', response: { output } } };
    const doc = {
      sessionId: '44444444-5555-4666-8777-888888888888',
      projectHash: 'abc',
      startTime: at,
      lastUpdated: at,
      messages: [
        { id: '1', timestamp: at, type: 'user', content: 'build' },
        { id: '2', timestamp: at, type: 'gemini', content: 'done', toolCalls: [{ ...call, result: [response] }] },
      ],
    };
    const file = join(dir, 'session-2026-01-01T00-00-44444444.json');
    writeFileSync(file, JSON.stringify(doc));
    const genv = { HOME: join(root, 'gemini-home'), STRATA_HOME: join(root, 'gemini-data') };
    const r = await runCli(['ingest', file], genv, { entry: join(root, 'rss.mjs') });
    expect(r.code, r.stderr).toBe(0);
    expect(Number(readFileSync(join(root, 'rss.txt'), 'utf8'))).toBeLessThanOrEqual(300 * 1024);
    const read = await runCli(['read', '44444444', '--show', 'tool', '--full'], genv);
    expect(read.stdout).toContain(output.slice(0, 1000));
    expect(read.stdout).toMatch(/more bytes of this text were not stored; the whole text is in the source file\]/);
  }, 60_000);

  describe('stored whole by an older strata', () => {
    beforeAll(() => {
      const db = new Database(join(env.STRATA_HOME!, 'strata.db'));
      db.prepare("UPDATE blocks SET text = ? WHERE kind = 'tool_result'").run(output);
      db.close();
    }, 60_000);

    it('the web API sends the first 100,000 characters; /api/block reads the rest from an offset', async () => {
      const { startUiServer } = await import(join(REPO, 'dist', 'ui', 'server', 'server.js'));
      const db = new Database(join(env.STRATA_HOME!, 'strata.db'), { readonly: true });
      const server = await startUiServer({ db, home: null });
      try {
        const res = await fetch(`${server.url}api/session?id=${SID}`);
        const body = await res.text();
        expect(res.status).toBe(200);
        expect(body.length).toBeLessThan(200_000);
        const detail = JSON.parse(body) as { messages: { blocks: { text: string; cut?: Record<string, number> }[] }[] };
        const block = detail.messages.flatMap((m) => m.blocks).find((b) => b.cut)!;
        expect(block.text).toBe(output.slice(0, 100_000));
        expect(block.cut).toMatchObject({ shown: 100_000, total: output.length });
        const page = await fetch(`${server.url}api/block?id=${block.cut!.id}&offset=${block.cut!.shown}`);
        const rest = (await page.json()) as { text: string; total: number };
        expect(rest.text).toBe(output.slice(100_000, 1_100_000));
        expect(rest.total).toBe(output.length);
      } finally {
        await server.close();
        db.close();
      }
    });

    it('an HTML export holds the first 100,000 characters and the command that prints the whole', async () => {
      const html = join(root, 'export.html');
      const r = await runCli(['export', SID.slice(0, 8), '--html', html], env);
      expect(r.code, r.stderr).toBe(0);
      expect(statSync(html).size).toBeLessThan(1 * MB);
      expect(readFileSync(html, 'utf8')).toContain(`"cut":{"id":`);
    });

    it('MCP read with full: true answers within its bounds and the session goes on', async () => {
      const client = await mcpClient();
      try {
        const r = (await client.callTool(
          { name: 'read', arguments: { session: SID.slice(0, 8), range: '3', show: ['tool'], full: true } },
          undefined,
          { timeout: BOUND_MS },
        )) as { content: { text: string }[] };
        expect(r.content[0]!.text.length).toBeLessThanOrEqual(400_000 + 2_000);
        expect(r.content[0]!.text).toMatch(/\[Limited to [\d,]+ words per field|\[Cut at 400,000 characters/);
      } finally {
        await client.close();
      }
    });
  });
});

async function mcpClient(): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: { PATH: process.env.PATH ?? '', TZ: 'UTC', NO_COLOR: '1', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'strata-hostile', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('huge search queries', () => {
  const ors = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' OR ');

  it('the CLI refuses past 64 words or 2,000 characters: one line, exit 2', async () => {
    const words = await runBounded(['search', ...ors(65).split(' ')], env);
    expect(words.code).toBe(2);
    expect(words.stderr).toBe('strata: invalid query: 65 words (at most 64); keep the words that matter\n');
    const long = await runBounded(['search', ...ors(50_000).split(' ')], env);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/^strata: invalid query: [\d,]+ characters \(at most 2,000\); shorten it\n$/);
  });

  it('MCP answers a 2-million-word and a 50,000-OR query with one line each, then still searches', async () => {
    const client = await mcpClient();
    try {
      const huge = Array.from({ length: 2_000_000 }, (_, i) => `w${i % 5000}`).join(' ');
      await expect(
        client.callTool({ name: 'search', arguments: { query: huge } }, undefined, { timeout: BOUND_MS }),
      ).rejects.toThrow(/^MCP error -32600: strata: request of [\d,]+ bytes refused \(at most 1,048,576\)$/);
      const many = (await client.callTool({ name: 'search', arguments: { query: ors(50_000) } }, undefined, {
        timeout: BOUND_MS,
      })) as { isError?: boolean; content: { text: string }[] };
      expect(many.isError).toBe(true);
      expect(many.content[0]!.text).toMatch(/at most 2000 characters/);
      expect(many.content[0]!.text.split('\n')).toHaveLength(1);
      const words = (await client.callTool({ name: 'search', arguments: { query: ors(65) } }, undefined, {
        timeout: BOUND_MS,
      })) as { isError?: boolean; content: { text: string }[] };
      expect(words.content[0]!.text).toBe('strata: invalid query: 65 words (at most 64); keep the words that matter');
      const ok = (await client.callTool({ name: 'search', arguments: { query: 'build' } }, undefined, {
        timeout: BOUND_MS,
      })) as { isError?: boolean };
      expect(ok.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  }, 60_000);
});
