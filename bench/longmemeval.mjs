// LongMemEval-S session retrieval, on deja-vu's protocol (its scripts/longmemeval/main.go): per question a
// fresh store; each haystack session written as one Claude Code transcript (<root>/-work-lme/<id>.jsonl,
// user content a string, assistant content a list of text blocks, the haystack date + one minute per turn);
// the raw question as the query; rank = position of the first evidence session in the top 50 (0 if absent);
// abstention questions (_abs) skipped. Reported: hit@1/5/10, MRR, evidence-recall@k, per question type,
// search p50/p95, and the same for the variant that writes user turns only.
//
// Usage: node bench/longmemeval.mjs [--data DIR] [--dist DIR] [--limit N] [--types a,b] [--user-only|--both]
//   [--misses FILE] [-v]
// DIR (or LME_DATA) holds the 500 question files of LongMemEval-S cleaned (<question_id>.json). Never
// downloaded at run time; not part of CI. --dist points at another build's dist to compare releases.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pct } from './shared.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const dataDir = resolve(value('--data', process.env.LME_DATA ?? '/work/lme-data'));
const dist = resolve(value('--dist', join(here, '../dist')));
const limit = Number(value('--limit', 0));
const types = value('--types', '').split(',').filter(Boolean);
const variants = flag('--both') ? [false, true] : [flag('--user-only')];
const verbose = flag('-v');
const missesPath = value('--misses', '');

const RESTORE = `LongMemEval-S (cleaned) is not in ${dataDir}. Restore its 500 question files once, e.g. from
jungjaehoon-lifegamez/MAMA at commit 2f8ad4b0e15be1dbf36b0862cb43cc98f91c459f:
  git clone --filter=blob:none --no-checkout https://github.com/jungjaehoon-lifegamez/MAMA lme-src
  git -C lme-src checkout 2f8ad4b0e15be1dbf36b0862cb43cc98f91c459f -- \\
    packages/memorybench/data/benchmarks/longmemeval/datasets/questions
  mv lme-src/packages/memorybench/data/benchmarks/longmemeval/datasets/questions ${dataDir}
or split longmemeval_s_cleaned.json (xiaowu0162/longmemeval-cleaned) into one <question_id>.json per question.
Then: node bench/longmemeval.mjs --data ${dataDir}  (or LME_DATA=${dataDir})`;

if (!existsSync(dataDir) || readdirSync(dataDir).filter((f) => f.endsWith('.json')).length === 0) {
  console.error(RESTORE);
  process.exit(2);
}

const { openStore } = await import(pathToFileURL(join(dist, 'store/db.js')).href);
const { ingest } = await import(pathToFileURL(join(dist, 'core/ingest/ingest.js')).href);
const { search } = await import(pathToFileURL(join(dist, 'core/retrieval/search.js')).href);

/** "2023/05/20 (Sat) 02:21" → a Date in UTC. */
function lmeDate(text) {
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) \(\w+\) (\d{2}):(\d{2})$/.exec(text ?? '');
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5])) : new Date(Date.UTC(2023, 0, 1));
}

/** Writes the question's haystack as Claude Code transcripts under root; returns the projects folder. */
function writeHaystack(q, root, userOnly) {
  const proj = join(root, '-work-lme');
  mkdirSync(proj, { recursive: true });
  q.haystack_sessions.forEach((turns, si) => {
    const id = q.haystack_session_ids[si];
    const start = lmeDate(q.haystack_dates[si]).getTime();
    const lines = [];
    turns.forEach((turn, ti) => {
      if (userOnly && turn.role !== 'user') return;
      const content = turn.role === 'assistant' ? [{ type: 'text', text: turn.content }] : turn.content;
      lines.push(
        JSON.stringify({
          type: turn.role,
          sessionId: id,
          timestamp: new Date(start + ti * 60_000).toISOString().replace('.000Z', 'Z'),
          message: { role: turn.role, content },
        }),
      );
    });
    writeFileSync(join(proj, `${id}.jsonl`), lines.length ? `${lines.join('\n')}\n` : '');
  });
  return root;
}

async function runQuestion(q, userOnly) {
  const tmp = mkdtempSync(join(tmpdir(), 'strata-lme-'));
  try {
    const root = writeHaystack(q, join(tmp, 'claude'), userOnly);
    const store = openStore(join(tmp, 'strata.db'));
    try {
      await ingest({ store, paths: [root], env: {}, pipeline: 'inline' });
      const t0 = performance.now();
      const result = search(store.db, { query: q.question, limit: 50, maxPerSession: 1 });
      const ms = performance.now() - t0;
      const ranked = result.sessions.map((s) => s.id);
      const want = new Set(q.answer_session_ids);
      const at = ranked.findIndex((id) => want.has(id));
      const evidence = {};
      for (const k of [1, 5, 10, 20]) evidence[k] = ranked.slice(0, k).filter((id) => want.has(id)).length / want.size;
      return { rank: at >= 0 && at < 50 ? at + 1 : 0, ms, evidence, top: ranked.slice(0, 5) };
    } finally {
      store.close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const files = readdirSync(dataDir)
  .filter((f) => f.endsWith('.json'))
  .sort();
let questions = files
  .map((f) => JSON.parse(readFileSync(join(dataDir, f), 'utf8')))
  .filter((q) => !q.question_id.includes('_abs'))
  .filter((q) => types.length === 0 || types.includes(q.question_type));
if (limit > 0) questions = questions.slice(0, limit);

const bucket = () => ({ n: 0, r1: 0, r5: 0, r10: 0, r20: 0, mrr: 0, ev: { 1: 0, 5: 0, 10: 0, 20: 0 } });
const p = (a, n) => `${((100 * a) / Math.max(1, n)).toFixed(1)}%`.padStart(7);
const row = (name, b) =>
  `${name.padEnd(28)} ${String(b.n).padStart(4)} ${p(b.r1, b.n)} ${p(b.r5, b.n)} ${p(b.r10, b.n)} ` +
  `${p(b.r20, b.n)}   ${(b.mrr / Math.max(1, b.n)).toFixed(3)}`;

console.log(`dist: ${dist}\ndata: ${dataDir} (${questions.length} non-abstention questions)`);
const misses = [];
for (const userOnly of variants) {
  const total = bucket();
  const byType = new Map();
  const times = [];
  const started = performance.now();
  for (const [i, q] of questions.entries()) {
    const r = await runQuestion(q, userOnly);
    times.push(r.ms);
    if (!byType.has(q.question_type)) byType.set(q.question_type, bucket());
    for (const b of [total, byType.get(q.question_type)]) {
      b.n++;
      if (r.rank >= 1) {
        b.mrr += 1 / r.rank;
        if (r.rank <= 1) b.r1++;
        if (r.rank <= 5) b.r5++;
        if (r.rank <= 10) b.r10++;
        if (r.rank <= 20) b.r20++;
      }
      for (const k of [1, 5, 10, 20]) b.ev[k] += r.evidence[k];
    }
    if (r.rank !== 1) misses.push({ id: q.question_id, type: q.question_type, q: q.question, rank: r.rank, userOnly });
    if (verbose)
      console.log(`${String(i + 1).padStart(4)} ${q.question_type.padEnd(26)} rank=${r.rank} ${q.question_id}`);
  }
  const wall = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`\n${userOnly ? 'user turns only' : 'user and assistant turns'} · wall ${wall} s`);
  console.log(
    `search p50 ${pct(times, 50).toFixed(1)} ms · p95 ${pct(times, 95).toFixed(1)} ms (in-process, 1 search/question)`,
  );
  console.log(`${'type'.padEnd(28)} ${'n'.padStart(4)}   hit@1   hit@5  hit@10  hit@20   MRR`);
  for (const t of [...byType.keys()].sort()) console.log(row(t, byType.get(t)));
  console.log(row('TOTAL', total));
  const ev = (k) => `${((100 * total.ev[k]) / Math.max(1, total.n)).toFixed(1)}%`.padStart(7);
  console.log(`${'evidence-recall@1/5/10/20'.padEnd(33)} ${ev(1)} ${ev(5)} ${ev(10)} ${ev(20)}`);
}
if (missesPath) writeFileSync(missesPath, misses.map((m) => JSON.stringify(m)).join('\n') + '\n');
