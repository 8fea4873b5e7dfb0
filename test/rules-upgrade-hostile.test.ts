// End-to-end: a store written under older secret rules (here: texts kept unredacted and the rules record
// set back, as an upgrade that added a rule leaves it) holds a secret today's rules catch. Readers never
// print it, and one run of any writer — a hook, the MCP refresh, the watcher — scans the store again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, REPO, runCli, runCliAsync, spawnCli } from './support/cli.js';

// Built at run time, so this file itself holds no secret.
const TOKEN_BODY = '1234567890abcdefghijklmnopqrstuvwxyzAB';
const SECRET = ['ghp', TOKEN_BODY].join('_');
const SID = '11111111-2222-3333-4444-555555555555';

let base: string;

interface OldStore {
  env: Record<string, string>;
  dir: string;
  project: string;
}

const line = (sid: string, uuid: string, content: string) =>
  JSON.stringify({
    type: 'user',
    uuid,
    sessionId: sid,
    timestamp: '2026-01-01T00:00:00Z',
    cwd: '/tmp/proj',
    message: { role: 'user', content },
  }) + '\n';

/** A store whose texts were stored before today's rules: the secret is in it, the record says 'rules-1'. */
async function oldStore(name: string): Promise<OldStore> {
  const dir = join(base, name);
  const project = join(dir, 'projects', '-tmp-proj');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, `${SID}.jsonl`), line(SID, 'u1', `please deploy with token ${SECRET} now`));
  const env = { HOME: join(dir, 'home'), STRATA_HOME: join(dir, 'data') };
  const r = await runCli(['ingest', '--no-redact', project], env);
  expect(r.code, r.stderr).toBe(0);
  const db = new Database(join(dir, 'data', 'strata.db'));
  db.prepare("UPDATE redaction_state SET rules = 'rules-1', scan_next = 0, scan_end = NULL").run();
  db.close();
  expect(stored({ env, dir, project })).toBeGreaterThan(0);
  return { env, dir, project };
}

/** Rows of the store's blocks that still hold the secret. */
function stored(store: OldStore): number {
  const db = new Database(join(store.dir, 'data', 'strata.db'), { readonly: true });
  try {
    return db.prepare('SELECT COUNT(*) FROM blocks WHERE text LIKE ?').pluck().get(`%${SECRET}%`) as number;
  } finally {
    db.close();
  }
}

/** What `strata read` and `strata search` print about the secret's session. */
async function readerOutput(store: OldStore): Promise<{ stdout: string; stderr: string }> {
  const read = await runCli(['read', SID], store.env);
  const search = await runCli(['search', TOKEN_BODY], store.env);
  return { stdout: read.stdout + search.stdout, stderr: read.stderr + search.stderr };
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'strata-rules-upgrade-'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('a store redacted with older secret rules', () => {
  it('is never printed as stored: readers redact on the way out and say so', async () => {
    const store = await oldStore('reader');
    const out = await readerOutput(store);
    expect(out.stdout).not.toContain(SECRET);
    expect(out.stdout).toContain('please deploy with token [REDACTED:github-token] now');
    expect(out.stderr).toContain('scanned again with newer secret rules');
    const context = await runCli(['hook', 'context'], store.env, { input: JSON.stringify({ cwd: '/tmp/proj' }) });
    expect(context.stdout).toContain('11111111');
    expect(context.stdout).not.toContain(SECRET);
    const json = await runCli(['read', SID, '--json'], store.env);
    expect(json.stdout).not.toContain(SECRET);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
  });

  it('is redacted by the web app API (with a header saying so) and by an HTML export', async () => {
    const store = await oldStore('ui');
    const html = join(store.dir, 'session.html');
    expect((await runCli(['export', SID, '--html', html], store.env)).code).toBe(0);
    expect(readFileSync(html, 'utf8')).not.toContain(SECRET);
    expect(readFileSync(html, 'utf8')).toContain('[REDACTED:github-token]');
    const { startUiServer } = await import(join(REPO, 'dist', 'ui', 'server', 'server.js'));
    const db = new Database(join(store.dir, 'data', 'strata.db'), { readonly: true });
    const server = await startUiServer({ db, home: null });
    try {
      const res = await fetch(`${server.url}api/session?id=${SID}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-strata-rescan')).toBe('pending');
      const body = await res.text();
      expect(body).not.toContain(SECRET);
      expect(body).toContain('[REDACTED:github-token]');
    } finally {
      await server.close();
      db.close();
    }
  });

  it('is scanned by one `strata hook ingest` of another transcript', async () => {
    const store = await oldStore('hook');
    const other = join(store.dir, 'other.jsonl');
    const sid = SID.replace('1111', '9999');
    writeFileSync(other, line(sid, 'o1', 'an unrelated clean session'));
    const payload = JSON.stringify({ session_id: sid, transcript_path: other, cwd: '/tmp/proj' });
    const r = await runCli(['hook', 'ingest'], store.env, { input: payload });
    expect(r.code, r.stderr).toBe(0);
    expect(stored(store)).toBe(0);
    const out = await readerOutput(store);
    expect(out.stdout).not.toContain(SECRET);
    expect(out.stdout).toContain('[REDACTED:github-token]');
    expect(out.stderr).not.toContain('newer secret rules');
  });

  it('is scanned by the MCP refresh before its first answer, even when the last refresh is fresh', async () => {
    const store = await oldStore('mcp');
    writeFileSync(join(store.dir, 'data', 'last-ingest.json'), JSON.stringify({ at: new Date().toISOString() }));
    const client = new Client({ name: 'strata-e2e', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--refresh', '3600'],
      cwd: store.dir,
      env: { PATH: process.env.PATH ?? '', ...store.env, TZ: 'UTC' },
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const read = (await client.callTool({ name: 'read', arguments: { session: SID } })) as any;
      const text = JSON.stringify(read);
      expect(text).not.toContain(SECRET);
      expect(text).toContain('[REDACTED:github-token]');
      expect(stored(store)).toBe(0);
      const search = (await client.callTool({ name: 'search', arguments: { query: TOKEN_BODY } })) as any;
      expect(JSON.stringify(search)).not.toContain(SECRET);
    } finally {
      await client.close();
    }
  });

  it('is scanned before `strata logbook` sends conversations to a model provider', async () => {
    const store = await oldStore('logbook');
    const { startScriptedServer } = await import('./support/llm-scripted-server.js');
    const server = await startScriptedServer();
    try {
      server.script([], { kind: 'ok', text: '{"events": []}' });
      const env = {
        ...store.env,
        OPENAI_BASE_URL: `${server.url}/v1`,
        STRATA_LLM_PROVIDER: 'openai',
        STRATA_LLM_MODEL: 'gpt-4o-mini',
      };
      const run = await runCliAsync(['logbook', '--project', '/tmp/proj', '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests.length).toBeGreaterThan(0);
      expect(JSON.stringify(server.requests)).not.toContain(SECRET);
      expect(JSON.stringify(server.requests)).toContain('[REDACTED:github-token]');
      expect(stored(store)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('is scanned by `strata ingest --watch` as it starts, without a file changing', async () => {
    const store = await oldStore('watch');
    let stderr = '';
    const watcher: ChildProcess = spawnCli(['ingest', '--watch', store.project], store.env, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    watcher.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    try {
      expect(await until(() => stderr.includes('the scan is done'), 30_000), stderr).toBe(true);
    } finally {
      watcher.kill('SIGTERM');
    }
    expect(stored(store)).toBe(0);
    expect((await readerOutput(store)).stdout).not.toContain(SECRET);
  });
});
