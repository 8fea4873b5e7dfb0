// History index benchmark: a generated Puffin history (seeded PRNG, default 100,000 prompts, streamed
// parser path above 50 MB) indexed with the offline extractive provider. Each run is a child process so
// its peak RSS is its own: full run, unchanged re-runs (target ≤ 5% of the full time), one prompt edited.
// Usage: node bench/history-index.mjs [prompts=100000] [seed=1]
import { closeSync, mkdtempSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prng } from './corpus.mjs';

const EDIT_TOKEN = 'bench-edit-target';
const WORDS = (
  'the parser cache index segment token stream branch prompt response schema migration store query ' +
  'refactor test fixture build deploy config error retry timeout lock write read file module function class ' +
  'interface type handler route request reply user session thread summary topic marker hash update'
).split(' ');
const FILES = [
  'src/core/db.ts',
  'src/cli/main.ts',
  'src/shared/hash.ts',
  'lib/parser.js',
  'app/models/user.rb',
  'pkg/server/handler.go',
  'README.md',
];
const MARKERS = ['decision', 'bug', 'todo', 'api', 'perf', 'security', 'pattern', 'breaking', 'ref'];

function sentence(rand, words) {
  const out = [];
  for (let i = 0; i < words; i++)
    out.push(rand() < 0.06 ? FILES[Math.floor(rand() * FILES.length)] : WORDS[Math.floor(rand() * WORDS.length)]);
  const s = out.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

function paragraph(rand, minWords, maxWords) {
  const target = minWords + Math.floor(rand() * (maxWords - minWords));
  const parts = [];
  for (let n = 0; n < target; ) {
    const w = 6 + Math.floor(rand() * 12);
    parts.push(sentence(rand, w));
    n += w;
  }
  if (rand() < 0.01) parts.push(`\n@/${MARKERS[Math.floor(rand() * MARKERS.length)]}: ${sentence(rand, 8)}`);
  return parts.join(' ');
}

/** Writes `.puffin/history.json` with `prompts` prompts in 4 branches, threads of 1-8 turns. */
export function generatePuffinHistory(path, { prompts, seed }) {
  const rand = prng(seed);
  const fd = openSync(path, 'w');
  const branches = ['specifications', 'architecture', 'backend', 'fullstack'];
  const perBranch = Math.ceil(prompts / branches.length);
  let made = 0;
  let t = Date.UTC(2025, 0, 1);
  writeSync(fd, '{"branches":{');
  branches.forEach((branch, b) => {
    writeSync(
      fd,
      `${b ? ',' : ''}${JSON.stringify(branch)}:` +
        `{"id":${JSON.stringify(branch)},"name":${JSON.stringify(branch)},"prompts":[`,
    );
    let inBranch = 0;
    let parent = null;
    let left = 0;
    let chunk = [];
    while (inBranch < perBranch && made < prompts) {
      if (left === 0) {
        left = 1 + Math.floor(rand() * 8);
        parent = null;
      }
      const id = `p${made.toString(36)}-${Math.floor(rand() * 1e9).toString(36)}`;
      t += 30_000 + Math.floor(rand() * 600_000);
      const content = (made === Math.floor(prompts / 2) ? `${EDIT_TOKEN} ` : '') + paragraph(rand, 20, 80);
      const response = {
        content: paragraph(rand, 40, 200),
        timestamp: t + 20_000,
        sessionId: `s${made}`,
        cost: Math.round(rand() * 1000) / 10000,
        turns: 1 + Math.floor(rand() * 6),
        duration: 20_000,
      };
      chunk.push(JSON.stringify({ id, parentId: parent, content, timestamp: t, response, children: [] }));
      parent = id;
      left--;
      inBranch++;
      made++;
      if (chunk.length >= 1000) {
        writeSync(fd, (inBranch > chunk.length ? ',' : '') + chunk.join(','));
        chunk = [];
      }
    }
    if (chunk.length) writeSync(fd, (inBranch > chunk.length ? ',' : '') + chunk.join(','));
    writeSync(fd, ']}');
  });
  writeSync(fd, '},"activeBranch":"fullstack"}');
  closeSync(fd);
  return made;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function child(history, out) {
  const { generateHistoryIndex } = await import('../dist/core/history-index/index.js');
  const { LlmRunner, createExtractiveProvider } = await import('../dist/core/llm/index.js');
  const inner = createExtractiveProvider();
  const latencies = [];
  const provider = {
    name: inner.name,
    model: inner.model,
    networked: false,
    async complete(request, context) {
      const t = performance.now();
      try {
        return await inner.complete(request, context);
      } finally {
        latencies.push(performance.now() - t);
      }
    },
  };
  const t = performance.now();
  const result = await generateHistoryIndex({
    source: { kind: 'puffin-file', path: history },
    outputPath: out,
    runner: new LlmRunner({ provider }),
  });
  const ms = performance.now() - t;
  latencies.sort((a, b) => a - b);
  const s = result.stats;
  console.log(
    JSON.stringify({
      ms,
      mode: result.mode,
      calls: s.llmCalls.count,
      prompts: s.promptsProcessed,
      segments: s.segmentsGenerated,
      markers: s.markersExtracted,
      phases: s.phases,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      rssMB: process.resourceUsage().maxRSS / 1024,
    }),
  );
}

function runChild(history, out) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', history, out], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

async function main() {
  const prompts = Number(process.argv[2] ?? 100_000);
  const seed = Number(process.argv[3] ?? 1);
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-history-index-'));
  try {
    mkdirSync(join(dir, '.puffin'));
    const history = join(dir, '.puffin', 'history.json');
    const out = join(dir, '.puffin', 'history.index.json');
    const made = generatePuffinHistory(history, { prompts, seed });
    const bytes = readFileSync(history).length;
    console.log(
      `corpus: ${made} prompts, ${(bytes / 1e6).toFixed(1)} MB Puffin history.json (seed ${seed}; streaming parser ` +
        `above 50 MB)`,
    );
    const fmt = (ms) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);
    const full = runChild(history, out);
    console.log(
      `full run: ${fmt(full.ms)} (${(full.prompts / (full.ms / 1000)).toFixed(0)} prompts/s, ` +
        `${(bytes / 1e6 / (full.ms / 1000)).toFixed(1)} MB/s), ${full.segments} segments, ${full.calls} LLM calls, ` +
        `${full.markers} markers, peak RSS ${full.rssMB.toFixed(0)} MB`,
    );
    console.log(
      `  phases: ${Object.entries(full.phases)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(', ')}`,
    );
    console.log(
      `  summary latency per segment (extractive): p50 ${full.p50.toFixed(1)} ms, p95 ${full.p95.toFixed(1)} ms`,
    );
    const reruns = [runChild(history, out), runChild(history, out), runChild(history, out)];
    const times = reruns.map((r) => r.ms).sort((a, b) => a - b);
    const worst = times[times.length - 1];
    console.log(
      `unchanged re-run ×3: p50 ${fmt(percentile(times, 50))}, max ` +
        `${fmt(worst)} = ${((worst / full.ms) * 100).toFixed(2)}% of the full run (target ≤ 5%), ` +
        `${reruns[0].calls} LLM calls, mode ${reruns[0].mode}, peak RSS ${reruns[0].rssMB.toFixed(0)} MB`,
    );
    const text = readFileSync(history);
    const at = text.indexOf(EDIT_TOKEN);
    writeFileSync(
      history,
      Buffer.concat([text.subarray(0, at), Buffer.from('bench-edit-DONE!!'), text.subarray(at + EDIT_TOKEN.length)]),
    );
    const edit = runChild(history, out);
    console.log(
      `one prompt edited: ${fmt(edit.ms)} = ${((edit.ms / full.ms) * 100).toFixed(1)}% of the full run, ` +
        `${edit.calls} LLM call(s), mode ${edit.mode}, peak RSS ${edit.rssMB.toFixed(0)} MB`,
    );
    console.log(
      `  phases: ${Object.entries(edit.phases)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(', ')}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const invoked = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (invoked && process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else if (invoked) await main();
