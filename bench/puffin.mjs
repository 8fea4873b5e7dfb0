// Puffin benchmark: generates a ~N MB `.puffin/history.json` (seeded PRNG resampling the fixture
// prompts into threads) and measures, each in its own Node process so peak RSS is per mode:
//   stream  – streamPuffinHistory into a counting sink (bounded memory: the streaming parser's own cost)
//   parse   – parsePuffinFile, the adapter's parseFile (streaming above 50 MB, full ParseOutput in memory)
//   ingest  – a full `ingest` of the file into a temp store (parse + redaction + SQLite/FTS writes)
// plus p50/p95 latency of parsing each real fixture file (in-memory path).
// Usage: node bench/puffin.mjs [megabytes=200] [modes=stream,parse,ingest]   (build first: npx tsc -p
// tsconfig.build.json)
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prng } from './corpus.mjs';

const FIXTURES = fileURLToPath(new URL('../../shared/fixtures/real/puffin/', import.meta.url));
const rssMB = () => (process.resourceUsage().maxRSS / 1024).toFixed(0);

function fixturePrompts() {
  const prompts = [];
  for (const dir of readdirSync(FIXTURES)) {
    for (const name of readdirSync(join(FIXTURES, dir))) {
      const doc = JSON.parse(readFileSync(join(FIXTURES, dir, name), 'utf8'));
      for (const branch of Object.values(doc.branches)) prompts.push(...branch.prompts);
    }
  }
  return prompts;
}

/** Writes the history incrementally (the generator never holds the file in memory). */
function generateHistory(path, megabytes, seed) {
  const rand = prng(seed);
  const samples = fixturePrompts();
  const target = megabytes * 1e6;
  const fd = openSync(path, 'w');
  let bytes = 0;
  const write = (s) => {
    bytes += Buffer.byteLength(s);
    writeSync(fd, s);
  };
  const branches = ['specifications', 'architecture', 'ui', 'backend', 'deployment', 'fullstack'];
  let prompts = 0;
  let roots = 0;
  let t = Date.UTC(2026, 0, 1);
  write('{\n  "branches": {');
  branches.forEach((branchId, bi) => {
    write(
      `${bi ? ',' : ''}\n    "${branchId}": {\n      "id": "${branchId}",\n      "name": ` +
        `"${branchId[0].toUpperCase()}${branchId.slice(1)}",\n      "prompts": [`,
    );
    const recent = [];
    let first = true;
    while (bytes < (target * (bi + 1)) / branches.length) {
      const sample = samples[Math.floor(rand() * samples.length)];
      const id = `p${seed}${bi}x${(prompts++).toString(36)}${Math.floor(rand() * 1e9).toString(36)}`;
      const parentId = recent.length === 0 || rand() < 0.3 ? null : recent[Math.floor(rand() * recent.length)];
      if (parentId === null) roots++;
      t += Math.floor(rand() * 600_000);
      const prompt = { ...sample, id, parentId, timestamp: rand() < 0.1 ? new Date(t).toISOString() : t, children: [] };
      if (prompt.response) prompt.response = { ...prompt.response, timestamp: t + 60_000 };
      const text = JSON.stringify(prompt, null, 2).replace(/\n/g, '\n        ');
      write(`${first ? '' : ','}\n        ${text}`);
      first = false;
      recent.push(id);
      if (recent.length > 20) recent.shift();
    }
    write('\n      ]\n    }');
  });
  write(`\n  },\n  "activeBranch": "fullstack",\n  "updatedAt": ${t}\n}\n`);
  closeSync(fd);
  return { bytes, prompts, roots };
}

async function runMode(mode, path) {
  const size = statSync(path).size;
  const t = performance.now();
  let line;
  if (mode === 'stream') {
    const { streamPuffinHistory } = await import('../dist/sources/puffin/parser.js');
    let messages = 0;
    let sessions = 0;
    let malformed = 0;
    await streamPuffinHistory(path, {
      message: () => messages++,
      session: () => sessions++,
      malformed: () => malformed++,
      skipped: () => {},
    });
    line = `${sessions} sessions, ${messages} messages, ${malformed} malformed`;
  } else if (mode === 'parse') {
    const { puffinAdapter } = await import('../dist/sources/puffin/index.js');
    const out = await puffinAdapter.parseFile({ path });
    line = `${out.sessions.length} sessions, ${out.messages.length} messages, ${out.malformed.length} malformed`;
  } else {
    const { openStore } = await import('../dist/store/db.js');
    const { ingest } = await import('../dist/core/ingest/ingest.js');
    const { puffinAdapter } = await import('../dist/sources/puffin/index.js');
    const home = mkdtempSync(join(tmpdir(), 'strata-bench-puffin-store-'));
    try {
      const store = openStore(join(home, 'strata.db'));
      const report = await ingest({ store, paths: [path], adapters: [puffinAdapter] });
      store.close();
      line = `${report.messagesAdded} messages, ${report.blocksAdded} blocks written`;
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  const s = (performance.now() - t) / 1000;
  console.log(
    `${mode.padEnd(6)}: ${s.toFixed(2)} s, ${(size / 1e6 / s).toFixed(1)} MB/s, ${line}, peak RSS ${rssMB()} MB`,
  );
}

async function fixtureLatency() {
  const { parsePuffinFile } = await import('../dist/sources/puffin/parser.js');
  for (const dir of readdirSync(FIXTURES)) {
    for (const name of readdirSync(join(FIXTURES, dir))) {
      const file = join(FIXTURES, dir, name);
      const times = [];
      for (let i = 0; i < 60; i++) {
        const t = performance.now();
        await parsePuffinFile(file);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const p = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
      console.log(
        `fixture ${dir}/${name} (${(statSync(file).size / 1e3).toFixed(0)} kB): p50 ${p(0.5)} ms, p95 ${p(0.95)} ms`,
      );
    }
  }
}

if (process.argv[2] === '--child') {
  await runMode(process.argv[3], process.argv[4]);
} else {
  const megabytes = Number(process.argv[2] ?? 200);
  const modes = (process.argv[3] ?? 'stream,parse,ingest').split(',');
  // STRATA_BENCH_KEEP=DIR keeps the generated history in DIR (reused on the next run) for profiling.
  const keep = process.env.STRATA_BENCH_KEEP;
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'strata-bench-puffin-'));
  try {
    mkdirSync(join(dir, 'project', '.puffin'), { recursive: true });
    const path = join(dir, 'project', '.puffin', 'history.json');
    const gen =
      keep && existsSync(path)
        ? { bytes: statSync(path).size, prompts: '?', roots: '?' }
        : generateHistory(path, megabytes, 1);
    console.log(
      `corpus: ${(gen.bytes / 1e6).toFixed(1)} MB history.json, ${gen.prompts} prompts in ${gen.roots} threads ` +
        `(resampled fixtures, seed 1)`,
    );
    for (const mode of modes) {
      const res = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, path], {
        stdio: 'inherit',
      });
      if (res.status !== 0) console.log(`(${mode} exited with ${res.status ?? res.signal})`);
    }
    await fixtureLatency();
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}
