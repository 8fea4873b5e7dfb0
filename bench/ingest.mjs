// Ingest benchmark: full ingest of an N-MB generated Claude Code corpus (MB/s, peak RSS), a no-op
// re-ingest, and a no-op re-ingest of 10,000 unchanged small files.
// Usage: node bench/ingest.mjs [megabytes=200] [smallFiles=10000]
import { mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../dist/store/db.js';
import { ingest } from '../dist/core/ingest/ingest.js';
import { ensureListing } from '../dist/core/retrieval/listing.js';
import { homeDir } from '../dist/shared/paths.js';

const megabytes = Number(process.argv[2] ?? 200);
const smallFiles = Number(process.argv[3] ?? 10000);
const dir = mkdtempSync(join(tmpdir(), 'strata-bench-ingest-'));
// As `strata ingest`: the listing rows of the sessions a run wrote are computed at its end.
const listing = { afterWrite: (db) => ensureListing(db, homeDir(process.env)) };
const rssMB = () => (process.resourceUsage().maxRSS / 1024).toFixed(0);

/**
 * CPU time of every thread of this process (writer, ingest worker, checkpointer, V8's helpers) over a
 * measured span. On a shared machine whose speed varies from minute to minute, the CPU seconds tell a
 * slow minute (more CPU for the same work) from a slower ingest.
 */
function cpuLine(usage, ms) {
  const user = usage.user / 1e6;
  const system = usage.system / 1e6;
  return (
    `${(user + system).toFixed(1)} s (user ${user.toFixed(1)}, system ` +
    `${system.toFixed(1)}), ${((user + system) / (ms / 1000)).toFixed(2)} cores busy on average`
  );
}

/**
 * Generates a corpus in a child process, so that this process's peak RSS is the ingest's alone (the
 * generator's own heap would otherwise count towards it).
 */
function generate(root, options) {
  const corpus = fileURLToPath(new URL('./corpus.mjs', import.meta.url));
  const script =
    `import(${JSON.stringify(corpus)}).then((m) => ` +
    `process.stdout.write(JSON.stringify(m.generateClaudeCorpus(` +
    `${JSON.stringify(root)}, ${JSON.stringify(options)}))))`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`corpus generation failed (exit ${r.status})`);
  return JSON.parse(r.stdout);
}

/**
 * Waits until the corpus just written has reached the disk. Real histories were written long before they
 * are ingested; a corpus written a second ago is still being flushed by the kernel, and that writeback
 * (a gigabyte, on a slow disk for tens of seconds) competed with the ingest's own writes and checkpoint
 * fsyncs, which measured the generator rather than strata.
 */
function settle() {
  const t = performance.now();
  const r = spawnSync('sync', { stdio: 'inherit' });
  if (r.status === 0)
    console.log(`(corpus flushed to disk before timing: ${((performance.now() - t) / 1000).toFixed(1)} s)`);
}

try {
  const gen = generate(join(dir, 'corpus'), { megabytes, seed: 1 });
  console.log(
    `corpus: ${gen.files} files, ${(gen.bytes / 1e6).toFixed(1)} MB of Claude Code JSONL (resampled fixtures, seed 1)`,
  );
  settle();
  const store = openStore(join(dir, 'home', 'strata.db'));
  let t = performance.now();
  const cpu = process.cpuUsage();
  const full = await ingest({ store, paths: [join(dir, 'corpus')], ...listing });
  let ms = performance.now() - t;
  console.log(
    `full ingest: ${(ms / 1000).toFixed(2)} s, ${(gen.bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s, ` +
      `${full.messagesAdded} messages, ${full.blocksAdded} blocks, ${full.redactions} redactions, peak RSS ` +
      `${rssMB()} MB`,
  );
  console.log(`  CPU: ${cpuLine(process.cpuUsage(cpu), ms)}`);
  t = performance.now();
  const again = await ingest({ store, paths: [join(dir, 'corpus')], ...listing });
  ms = performance.now() - t;
  console.log(`no-op re-ingest: ${ms.toFixed(0)} ms for ${again.filesSkipped} unchanged files`);
  store.close();

  const small = generate(join(dir, 'small'), { sessions: smallFiles, seed: 2, maxRecords: 3 });
  settle();
  const store2 = openStore(join(dir, 'home2', 'strata.db'));
  t = performance.now();
  await ingest({ store: store2, paths: [join(dir, 'small')], ...listing });
  const firstSmall = performance.now() - t;
  t = performance.now();
  const noop = await ingest({ store: store2, paths: [join(dir, 'small')], ...listing });
  ms = performance.now() - t;
  console.log(
    `${small.files} small files: first ingest ${(firstSmall / 1000).toFixed(2)} s; unchanged re-ingest ` +
      `${ms.toFixed(0)} ms (${noop.filesSkipped} skipped; target ≤ 1500 ms)`,
  );
  console.log(`peak RSS (whole run): ${rssMB()} MB`);
  store2.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
