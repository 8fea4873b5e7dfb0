// MCP server benchmark: `strata mcp` spawned and driven by the SDK's Client over stdio, on a store
// ingested from a reproducible corpus resampled from the real Claude Code fixtures. Prints the server's
// start (spawn to initialized), search latency through the client, and the server's idle RSS.
// Usage: node bench/mcp.mjs [megabytes=200] (or BENCH_MB); the targets are on 1024.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateClaudeCorpus } from './corpus.mjs';
import { openStore } from '../dist/store/db.js';
import { ingest } from '../dist/core/ingest/ingest.js';
import { recordLastIngest } from '../dist/core/ingest/refresh.js';
import { SEARCH_QUERIES, STRATA_BIN, pct } from './shared.mjs';

const CLI = STRATA_BIN;
const megabytes = Number(process.argv[2] ?? process.env.BENCH_MB ?? 200);
const QUERIES = SEARCH_QUERIES;

function report(name, samples, target, unit = 'ms') {
  const p50 = pct(samples, 50);
  const verdict =
    target === undefined
      ? ''
      : p50 <= target
        ? `  (target ≤ ${target} ${unit}: met)`
        : `  (target ≤ ${target} ${unit}: NOT met)`;
  console.log(
    `${name.padEnd(44)} p50 ${p50.toFixed(1).padStart(8)} ${unit}  p95 ` +
      `${pct(samples, 95).toFixed(1).padStart(8)} ${unit}  n=${samples.length}${verdict}`,
  );
}
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

// Fresh processes run without NODE_EXTRA_CA_CERTS (see bench/retrieval.mjs): the numbers are strata's.
const { NODE_EXTRA_CA_CERTS: _certs, ...cleanEnv } = process.env;

const dir = mkdtempSync(join(tmpdir(), 'strata-bench-mcp-'));
try {
  let t = performance.now();
  const corpus = generateClaudeCorpus(join(dir, 'corpus'), { megabytes });
  console.log(
    `corpus: ${corpus.files} sessions, ${(corpus.bytes / 1e6).toFixed(0)} MB in ` +
      `${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const env = { ...cleanEnv, HOME: join(dir, 'home'), STRATA_HOME: join(dir, 'data'), TZ: 'UTC', NO_COLOR: '1' };
  const store = openStore(join(env.STRATA_HOME, 'strata.db'));
  t = performance.now();
  await ingest({ store, paths: [join(dir, 'corpus')], env: { HOME: env.HOME } });
  store.close();
  console.log(`ingest: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  // The default roots (an empty home) were just "refreshed": the searches below measure queries only.
  recordLastIngest(env, Date.now());

  // The first start has no compile cache yet (as after an install or upgrade): reported on its own line.
  const starts = [];
  let firstStart;
  let client;
  let pid;
  for (let i = 0; i < 6; i++) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--refresh', '3600'],
      env,
      cwd: dir,
      stderr: 'ignore',
    });
    const c = new Client({ name: 'bench', version: '1.0.0' });
    const started = performance.now();
    await c.connect(transport);
    if (i === 0) firstStart = performance.now() - started;
    else starts.push(performance.now() - started);
    if (i < 5) await c.close();
    else [client, pid] = [c, transport.pid];
  }
  for (const q of QUERIES) await client.callTool({ name: 'search', arguments: { query: q } });
  const searches = [];
  for (let round = 0; round < 5; round++) {
    for (const q of QUERIES) {
      const started = performance.now();
      await client.callTool({ name: 'search', arguments: { query: q } });
      searches.push(performance.now() - started);
    }
  }
  await new Promise((r) => setTimeout(r, 1000));
  const idle = rssMb(pid);
  await client.close();
  report('server start (spawn to initialized)', starts, 300);
  console.log(`${'first start, no compile cache yet'.padEnd(44)} ${firstStart.toFixed(1).padStart(12)} ms`);
  report('search through the SDK client', searches, 10);
  console.log(
    `${'server RSS, idle after the searches'.padEnd(44)} ${idle.toFixed(0)} MB  (target ≤ 150 MB: ` +
      `${idle <= 150 ? 'met' : 'NOT met'})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
