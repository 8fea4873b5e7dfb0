// End-to-end: once `strata embed` ran, `strata ingest` embeds the passages it adds with the recorded provider
// and model (a real OpenAI-compatible server on 127.0.0.1), never fails for it, and the hooks never embed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, spawnCli } from './support/cli.js';
import { claudeTranscript } from './support/claude-transcript.js';
import { startEmbeddingServer, type EmbeddingServer } from './support/embedding-server.js';

let home: string;
let server: EmbeddingServer;
const env = (extra: Record<string, string> = {}) => ({
  HOME: join(home, 'home'),
  STRATA_HOME: join(home, 'data'),
  ...extra,
});
const projects = () => join(home, 'home', '.claude', 'projects', '-work-app');

function writeSession(id: string, prompt: string): string {
  const path = join(projects(), `${id}.jsonl`);
  writeFileSync(path, claudeTranscript(id, prompt));
  return path;
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !check()) await new Promise((r) => setTimeout(r, 100));
  return check();
}

const sentTexts = () => server.requests.flatMap((r) => r.input);

async function ingestJson(args: string[] = [], extra: Record<string, string> = {}) {
  const r = await runCli(['ingest', '--json', ...args], env(extra));
  expect(r.code).toBe(0);
  return { ...r, report: JSON.parse(r.stdout) as { embeddings?: Record<string, unknown> } };
}

/** The sessions a search ranks, in order (the default mode: hybrid once the store holds vectors). */
async function ranked(...words: string[]): Promise<{ ranking: string; ids: string[] }> {
  const r = await runCli(['search', ...words, '--json'], env());
  const parsed = JSON.parse(r.stdout) as { ranking: string; sessions: Array<{ id: string }> };
  return { ranking: parsed.ranking, ids: parsed.sessions.map((s) => s.id) };
}

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'strata-ingest-embed-'));
  mkdirSync(projects(), { recursive: true });
  writeSession('memo-1', 'we decided to memoize results with a cache');
  writeSession('parser-2', 'rename the variables in the parser module');
  server = await startEmbeddingServer();
  expect((await runCli(['ingest'], env())).code).toBe(0);
  const embed = await runCli(['embed', '--url', server.url, '--model', 'test-embed'], env());
  expect(embed.code).toBe(0);
  server.requests.length = 0;
});
afterEach(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

describe('strata ingest keeps vectors up to date', () => {
  it('embeds only the passages a new session adds, and a hybrid search finds it by meaning', async () => {
    writeSession('pod-3', 'the kubernetes pod restarts every night');
    const { report, stderr } = await ingestJson();
    expect(stderr).toBe('');
    expect(report.embeddings).toEqual({
      provider: 'openai-compatible',
      model: 'test-embed',
      url: server.url,
      embedded: 2,
      left: 0,
      seconds: expect.any(Number),
    });
    // 'Understood.' is already embedded under this model: only the new prompt is sent.
    expect(sentTexts()).toEqual(['the kubernetes pod restarts every night']);
    const found = await ranked('docker', 'crashed');
    expect(found).toEqual({ ranking: 'hybrid', ids: ['pod-3', ...found.ids.slice(1)] });
    const before = server.requests.length;
    const again = await ingestJson();
    expect(again.report.embeddings).toMatchObject({ embedded: 0, left: 0 });
    expect(server.requests).toHaveLength(before);
  });

  it('prints one line when not --json; --no-embed sends nothing and the next ingest catches up', async () => {
    writeSession('pod-3', 'the kubernetes pod restarts every night');
    const skipped = await ingestJson(['--no-embed']);
    expect(skipped.report.embeddings).toBeUndefined();
    expect(server.requests).toHaveLength(0);
    expect((await ranked('docker', 'crashed')).ids[0]).not.toBe('pod-3');
    server.requests.length = 0; // the query's embedding
    const next = await runCli(['ingest'], env());
    expect(next.code).toBe(0);
    expect(next.stderr.trim().split('\n').at(-1)).toMatch(/^embeddings: 2 passages embedded with test-embed in /);
    expect(sentTexts()).toEqual(['the kubernetes pod restarts every night']);
    expect((await ranked('docker', 'crashed')).ids[0]).toBe('pod-3');
  });

  it('a server that is down leaves the ingest standing (exit 0, one warning); `strata embed` resumes', async () => {
    const port = Number(new URL(server.url).port);
    await server.close();
    writeSession('pod-3', 'the kubernetes pod restarts every night');
    const r = await runCli(['ingest'], env());
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('warning'));
    expect(warnings).toEqual([
      `strata: warning: 2 passages not embedded: openai-compatible: connection failed (${server.url}); ` +
        'run `strata embed` to resume',
    ]);
    const listed = await runCli(['search', 'kubernetes', '--mode', 'lexical', '-l'], env());
    expect(listed.stdout).toContain('pod-3');
    server = await startEmbeddingServer(port);
    const resumed = await runCli(['embed', '--json'], env());
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ model: 'test-embed', sent: 1, embedded: 6, total: 6 });
    expect((await ranked('docker', 'crashed')).ids[0]).toBe('pod-3');
  });

  it('the hook ingest does not embed; the next `strata ingest` embeds what it stored', async () => {
    const transcript = writeSession('pod-3', 'the kubernetes pod restarts every night');
    const payload = { session_id: 'pod-3', transcript_path: transcript, cwd: '/work/app', hook_event_name: 'Stop' };
    const hook = await runCli(['hook', 'ingest'], env(), { input: JSON.stringify(payload) });
    expect(hook).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(server.requests).toHaveLength(0);
    const { report } = await ingestJson();
    expect(report.embeddings).toMatchObject({ embedded: 2, left: 0 });
    expect((await ranked('docker', 'crashed')).ids[0]).toBe('pod-3');
  });

  it('--watch says it does not embed, and does not; the next `strata ingest` does', async () => {
    const watcher = spawnCli(['ingest', '--watch', projects()], env(), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    watcher.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    try {
      expect(await until(() => stderr.includes('not embedded while watching'), 30_000)).toBe(true);
      writeSession('pod-3', 'the kubernetes pod restarts every night');
      expect(await until(() => /1 file ingested/.test(stderr), 30_000)).toBe(true);
    } finally {
      watcher.kill('SIGINT');
      await new Promise((resolve) => watcher.once('exit', resolve));
    }
    expect(server.requests).toHaveLength(0);
    expect((await ingestJson()).report.embeddings).toMatchObject({ embedded: 2, left: 0 });
  });

  it('talks to the recorded endpoint alone, with the key from the environment, never stored', async () => {
    const elsewhere = await startEmbeddingServer();
    try {
      writeSession('pod-3', 'the kubernetes pod restarts every night');
      await ingestJson([], { STRATA_EMBED_API_KEY: 'local-secret-key-123', STRATA_EMBED_URL: elsewhere.url });
      expect(server.requests.map((r) => r.authorization)).toEqual(['Bearer local-secret-key-123']);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
    for (const file of readdirSync(join(home, 'data')))
      expect(readFileSync(join(home, 'data', file)).includes('local-secret-key-123')).toBe(false);
  });
});

describe('strata embed on a store with no passages yet', () => {
  it('records the choice, so the first ingest embeds', async () => {
    rmSync(join(home, 'data'), { recursive: true, force: true });
    rmSync(projects(), { recursive: true, force: true });
    mkdirSync(projects(), { recursive: true });
    const embed = await runCli(['embed', '--url', server.url, '--model', 'test-embed', '--json'], env());
    expect(JSON.parse(embed.stdout)).toMatchObject({ embedded: 0, total: 0 });
    writeSession('pod-3', 'the kubernetes pod restarts every night');
    const { report } = await ingestJson();
    expect(report.embeddings).toMatchObject({ model: 'test-embed', embedded: 2, left: 0 });
  });
});
