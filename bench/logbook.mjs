// Logbook benchmark: 1,000 generated Claude Code sessions (resampled real records, seeded) in one
// workspace, built with the offline extractive provider. Each run is a child process so its peak RSS is
// its own: full build (target ≤ 60 s, ≤ 300 MB), continue with 10 new sessions (≤ 2 s), unchanged (≤ 0.5 s, 0 calls).
// Usage: node bench/logbook.mjs [sessions=1000] [seed=7]
import { mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateClaudeCorpus } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = resolve(here, '../dist/cli/main.js');
const WORKSPACE = '/';

async function child(storeFile, out) {
  const { openStore } = await import('../dist/store/db.js');
  const { runLogbook } = await import('../dist/core/logbook/index.js');
  const { LlmRunner, createExtractiveProvider } = await import('../dist/core/llm/index.js');
  const t = performance.now();
  const store = openStore(storeFile);
  const runner = new LlmRunner({ provider: createExtractiveProvider() });
  const result = await runLogbook({
    store,
    workspace: WORKSPACE,
    selection: { kind: 'project', project: WORKSPACE },
    runner,
    out,
  });
  store.close();
  const ms = performance.now() - t;
  const llm = runner.stats();
  console.log(
    JSON.stringify({
      ms,
      changed: result.changed,
      conversations: result.conversations,
      processed: result.processed,
      chunks: result.chunks,
      calls: llm.calls + llm.localAnswers,
      events: result.document.timeline.length,
      rssMB: process.resourceUsage().maxRSS / 1024,
    }),
  );
}

function runChild(storeFile, out) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', storeFile, out], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

function ingest(home, dir) {
  const r = spawnSync(process.execPath, [CLI, 'ingest', dir, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, STRATA_HOME: home, HOME: home },
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`ingest failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function main() {
  const sessions = Number(process.argv[2] ?? 1000);
  const seed = Number(process.argv[3] ?? 7);
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-logbook-'));
  try {
    const home = join(dir, 'data');
    const corpus = generateClaudeCorpus(join(dir, 'a'), { sessions, seed, maxRecords: 120 });
    const report = ingest(home, join(dir, 'a'));
    console.log(
      `corpus: ${corpus.files} sessions, ${(corpus.bytes / 1e6).toFixed(1)} MB of Claude Code JSONL (seed ` +
        `${seed}), ${report.messagesAdded} messages stored`,
    );
    const storeFile = join(home, 'strata.db');
    const out = join(dir, 'logbook.json');
    const fmt = (ms) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);
    const full = runChild(storeFile, out);
    console.log(
      `full build: ${fmt(full.ms)} (target ≤ 60 s), ${full.conversations} conversations, ${full.chunks} chunks, ` +
        `${full.calls} provider calls, ${full.events} events, peak RSS ${full.rssMB.toFixed(0)} MB (target ≤ 300 MB)`,
    );
    const later = generateClaudeCorpus(join(dir, 'b'), {
      sessions: 10,
      seed: seed + 1,
      maxRecords: 120,
      startMs: Date.UTC(2027, 0, 1),
    });
    ingest(home, join(dir, 'b'));
    const more = runChild(storeFile, out);
    console.log(
      `continue with ${later.files} new sessions: ${fmt(more.ms)} (target ≤ 2 s), ${more.processed} conversations ` +
        `processed, ${more.calls} provider calls, peak RSS ${more.rssMB.toFixed(0)} MB`,
    );
    const same = runChild(storeFile, out);
    console.log(
      `unchanged: ${fmt(same.ms)} (target ≤ 0.5 s), ${same.calls} provider calls, changed ${same.changed}, peak RSS ` +
        `${same.rssMB.toFixed(0)} MB`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const invoked = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (invoked && process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else if (invoked) await main();
