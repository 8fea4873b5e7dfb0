// End-to-end: `strata embed` against a real OpenAI-compatible server on 127.0.0.1, then `strata search
// --mode`, through the built CLI on Claude Code transcripts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { claudeTranscript } from './support/claude-transcript.js';
import { startEmbeddingServer, type EmbeddingServer } from './support/embedding-server.js';

let home: string;
let server: EmbeddingServer;
const env = () => ({ HOME: join(home, 'home'), STRATA_HOME: join(home, 'data') });

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'strata-embed-cli-'));
  const projects = join(home, 'home', '.claude', 'projects', '-work-app');
  mkdirSync(projects, { recursive: true });
  writeFileSync(
    join(projects, 'outage-1.jsonl'),
    claudeTranscript('outage-1', 'the docker container was crashing again'),
  );
  writeFileSync(
    join(projects, 'memo-2.jsonl'),
    claudeTranscript('memo-2', 'we decided to memoize results with a cache'),
  );
  server = await startEmbeddingServer();
  expect((await runCli(['ingest'], env())).code).toBe(0);
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

describe('strata embed and search --mode', () => {
  it('embeds every passage, reports JSON, and resumes with nothing left to send', async () => {
    const args = ['embed', '--url', server.url, '--model', 'test-embed', '--json'];
    const first = await runCli(args, env());
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toMatchObject({ provider: 'openai-compatible', model: 'test-embed', sent: 3 });
    const again = JSON.parse((await runCli(args, env())).stdout) as { sent: number; embedded: number; total: number };
    expect(again).toMatchObject({ sent: 0, embedded: 4, total: 4 });
  });

  it('ranks by meaning with --mode semantic, and hybrid by default once vectors exist', async () => {
    const semantic = await runCli(['search', 'pod', 'died', '--mode', 'semantic', '--json'], env());
    expect(semantic.code).toBe(0);
    const parsed = JSON.parse(semantic.stdout) as { ranking: string; sessions: Array<{ id: string }> };
    expect(parsed.ranking).toBe('semantic');
    expect(parsed.sessions[0]!.id).toBe('outage-1');
    const byDefault = await runCli(['search', 'pod', 'died', '--json'], env());
    const fused = JSON.parse(byDefault.stdout) as typeof parsed;
    expect(fused.ranking).toBe('hybrid');
    expect(fused.sessions[0]!.id).toBe('outage-1');
    const lexical = await runCli(['search', 'pod', 'died', '--mode', 'lexical'], env());
    expect(lexical.code).toBe(1);
  });

  it('refuses an unknown mode in one line with exit 2', async () => {
    const r = await runCli(['search', 'docker', '--mode', 'vector'], env());
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--mode must be one of lexical, semantic, hybrid/);
  });
});
