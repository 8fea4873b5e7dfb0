// Runs every benchmark in its own Node process (so peak RSS is per benchmark) and prints their output.
// Usage: npm run bench [-- name ...]   e.g. npm run bench -- ingest retrieval summary-quality
// Sizes: STRATA_BENCH_INGEST_MB (1000), STRATA_BENCH_SMALL_FILES (10000), STRATA_BENCH_RETRIEVAL_MB (1024),
// STRATA_BENCH_PUFFIN_MB (200), STRATA_BENCH_MCP_MB (1024), STRATA_BENCH_LOGBOOK_SESSIONS (1000),
// STRATA_BENCH_UI_SESSIONS (10000), STRATA_BENCH_UI_BIG_MB (10); the others use their scripts' defaults.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus, totalmem } from 'node:os';

const here = dirname(fileURLToPath(import.meta.url));
const args = {
  ingest: [process.env.STRATA_BENCH_INGEST_MB ?? '1000', process.env.STRATA_BENCH_SMALL_FILES ?? '10000'],
  retrieval: [process.env.STRATA_BENCH_RETRIEVAL_MB ?? '1024'],
  puffin: [process.env.STRATA_BENCH_PUFFIN_MB ?? '200'],
  mcp: [process.env.STRATA_BENCH_MCP_MB ?? '1024'],
  logbook: [process.env.STRATA_BENCH_LOGBOOK_SESSIONS ?? '1000'],
  ui: [process.env.STRATA_BENCH_UI_SESSIONS ?? '10000', process.env.STRATA_BENCH_UI_BIG_MB ?? '10'],
};
const wanted = process.argv.slice(2);
// longmemeval and push need a dataset kept outside the repository, ui a browser and a 10,000-session store,
// search-compare a store and builds to compare, lme-fusion a rankings file, question-ab two builds and
// stores: they run only when named.
const namedOnly = ['longmemeval', 'lme-fusion', 'push', 'ui', 'search-compare', 'question-ab'];
const benches = readdirSync(here)
  .filter(
    (f) =>
      f.endsWith('.mjs') && !['run.mjs', 'corpus.mjs', 'lme-corpus.mjs', 'lme-vectors.mjs', 'shared.mjs'].includes(f),
  )
  .filter((f) => !f.startsWith('.'))
  .map((f) => f.replace(/\.mjs$/, ''))
  .filter((name) => (wanted.length === 0 ? !namedOnly.includes(name) : wanted.includes(name)))
  .sort();

console.log(
  `strata benchmarks on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
    `Node ${process.version}`,
);
let failed = 0;
for (const name of benches) {
  const file = join(here, `${name}.mjs`);
  if (!existsSync(file)) continue;
  console.log(`\n== ${name} ==`);
  const res = spawnSync(process.execPath, ['--expose-gc', file, ...(args[name] ?? [])], { stdio: 'inherit' });
  if (res.status !== 0) {
    failed++;
    console.log(`(${name} exited with ${res.status ?? res.signal})`);
  }
}
process.exitCode = failed ? 1 : 0;
