// Team store: push throughput and search on PostgreSQL, beside local ingest and search, in one run, at
// 1×, 2× and 4× the LongMemEval-S corpus (its distinct haystack sessions, 19,195 at 1×, written as Claude
// Code transcripts; copies k > 1 get ids suffixed _k). A throwaway cluster of Debian's PostgreSQL
// (initdb in a temp dir, 127.0.0.1, a free port) is started per scale.
// Usage: node bench/push.mjs [--data DIR] [--scales 1,2,4] [--queries N]
// DIR (or LME_DATA) holds LongMemEval-S's 500 question files (see bench/longmemeval.mjs to restore them).
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { loadLmeCorpus, writeLmeCorpus } from './lme-corpus.mjs';
import { pct, STRATA_BIN } from './shared.mjs';

const args = process.argv.slice(2);
const value = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const dataDir = resolve(value('--data', process.env.LME_DATA ?? '/work/lme-data'));
const scales = value('--scales', process.env.STRATA_BENCH_PUSH_SCALES ?? '1,2,4')
  .split(',')
  .map(Number);
const queryCount = Number(value('--queries', 20));
if (!existsSync(dataDir)) {
  console.error(`LongMemEval-S is not in ${dataDir}: see bench/longmemeval.mjs for how to restore it`);
  process.exit(2);
}
const pgBin = ['17', '16', '15'].map((v) => `/usr/lib/postgresql/${v}/bin`).find((b) => existsSync(`${b}/initdb`));
if (!pgBin) {
  console.error('PostgreSQL server binaries not found (apt-get install postgresql)');
  process.exit(2);
}

function freePort() {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

async function startCluster() {
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-pg-'));
  const root = userInfo().uid === 0;
  if (root)
    chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'])), Number(execFileSync('id', ['-g', 'postgres'])));
  const as = (cmd, a) =>
    execFileSync(root ? 'runuser' : join(pgBin, cmd), root ? ['-u', 'postgres', '--', join(pgBin, cmd), ...a] : a, {
      stdio: 'ignore',
    });
  as('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '-E', 'UTF8']);
  const port = await freePort();
  const o = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir}`;
  as('pg_ctl', ['-D', join(dir, 'data'), '-o', o, '-l', join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      as('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function strata(env, argv) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [STRATA_BIN, ...argv], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`strata ${argv.join(' ')}: ${r.stderr}`);
  return { ms, out: r.stdout };
}

const { sessions, questions } = loadLmeCorpus(dataDir);
const keywords = ['asylum', 'marathon', 'sourdough', 'ukulele', 'mortgage', 'vaccine', 'kayak', 'python'];
const picked = questions.filter((_, i) => i % Math.max(1, Math.floor(questions.length / queryCount)) === 0);
console.log(`LongMemEval-S: ${sessions.size} distinct sessions, ${picked.length} questions timed; scales ${scales}`);
console.log(
  'scale  sessions   MB    ingest s  MB/s | push s  sessions/s  MB/s | ' +
    'keyword p50 local/remote ms | question p50 local/remote ms',
);
for (const scale of scales) {
  const root = mkdtempSync(join(tmpdir(), 'strata-bench-push-'));
  const cluster = await startCluster();
  try {
    const mb = writeLmeCorpus(join(root, 'corpus'), sessions, scale) / 2 ** 20;
    const env = { ...process.env, HOME: root, STRATA_HOME: join(root, 'data'), STRATA_MACHINE: 'bench' };
    const ingest = strata(env, ['ingest', join(root, 'corpus')]);
    strata(env, ['remote', 'add', 'bench', cluster.url]);
    strata(env, ['remote', 'init', 'bench']);
    const push = strata(env, ['push', 'bench', '--json']);
    const pushed = JSON.parse(push.out);
    const time = (argv) =>
      pct(
        argv.map((a) => strata(env, a).ms),
        50,
      );
    const kLocal = time(keywords.map((w) => ['search', w]));
    const kRemote = time(keywords.map((w) => ['search', w, '--remote', 'bench']));
    const qLocal = time(picked.map((q) => ['search', q]));
    const qRemote = time(picked.map((q) => ['search', q, '--remote', 'bench']));
    const f = (n, d = 0) => n.toFixed(d).padStart(7);
    console.log(
      `${String(scale).padStart(4)}×  ${String(pushed.sessionsPushed).padStart(7)} ${f(mb)} ` +
        `${f(ingest.ms / 1000, 1)} ` +
        `${f(mb / (ingest.ms / 1000), 1)} | ${f(push.ms / 1000, 1)} ${f(pushed.sessionsPushed / (push.ms / 1000))} ` +
        `${f(mb / (push.ms / 1000), 1)} | ${f(kLocal)} / ${f(kRemote)} | ${f(qLocal)} / ${f(qRemote)}`,
    );
  } finally {
    cluster.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
