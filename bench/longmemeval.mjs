// LongMemEval-S session retrieval, on deja-vu's protocol (its scripts/longmemeval/main.go): per question a
// fresh store; each haystack session written as one Claude Code transcript (<root>/-work-lme/<id>.jsonl,
// user content a string, assistant content a list of text blocks, the haystack date + one minute per turn);
// the raw question as the query; rank = position of the first evidence session in the top 50 (0 if absent);
// abstention questions (_abs) skipped. Reported: hit@1/5/10, MRR, evidence-recall@k, per question type,
// search p50/p95, and the same for the variant that writes user turns only.
//
// Usage: node bench/longmemeval.mjs [--data DIR] [--dist DIR] [--limit N] [--seed S] [--per-type K]
//   [--types a,b] [--user-only|--both] [--modes lexical,semantic,hybrid] [--embed offline|URL --embed-model M]
//   [--embed-cache DIR] [--rankings FILE] [--query-ms] [--misses FILE] [--half a|b] [--typos] [-v]
// --seed S takes --limit N questions from a seeded shuffle (else the first N by id); --per-type K takes, per
// question type, the K whose id has the smallest sha1. --half a|b keeps the questions whose id hashes into
// that half (sha1's first byte even: a): tune on one, confirm on the other.
// Semantic and hybrid modes embed each store with `strata embed`'s code; vectors are cached by (model, sha1
// of the text) in DIR/<model>.tsv (default /tmp/hybrid/vectors), so a rerun embeds nothing new. --rankings
// appends each question's lexical and semantic (all passages, user turns only) session rankings as JSON
// lines for bench/lme-fusion.mjs, which compares fusion rules without embedding again. --query-ms times the
// model embedding each question alone (uncached): what hybrid adds to a search before its scan.
// --typos asks each question with one typo: in its longest content word (letters only, 5 or more, not a stop
// word; the first of equals), two adjacent letters swapped, at position 1 + (sha1(id)'s first byte mod
// length - 2), the next pair when those two are equal. The first letter is never moved.
// DIR (or LME_DATA) holds the 500 question files of LongMemEval-S cleaned (<question_id>.json). Never
// downloaded at run time; not part of CI. --dist points at another build's dist to compare releases.
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cachedProvider, DEFAULT_VECTOR_CACHE, stratified } from './lme-vectors.mjs';
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
const seed = value('--seed', '');
const half = value('--half', '');
if (half !== '' && half !== 'a' && half !== 'b') {
  console.error('--half takes a or b');
  process.exit(2);
}
const modes = value('--modes', 'lexical').split(',').filter(Boolean);
const embedWith = value('--embed', 'offline');
const embedCacheDir = value('--embed-cache', DEFAULT_VECTOR_CACHE);
const perType = Number(value('--per-type', 0));
const rankingsPath = value('--rankings', '');
const typos = flag('--typos');

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
const { STOP_WORDS } = await import(pathToFileURL(join(dist, 'core/retrieval/question-words.js')).href);
const semanticModes = modes.some((m) => m !== 'lexical');
const embedding = semanticModes ? await embeddingTools() : undefined;

/** The provider `strata embed` would use, behind the on-disk vector cache (lme-vectors.mjs). */
async function embeddingTools() {
  const load = (path) => import(pathToFileURL(join(dist, path)).href);
  const [{ createEmbeddingProvider }, { embedStore }, { searchWithMode }, { rankSemantic }, { parseSelectors }] =
    await Promise.all([
      load('core/embed/create-provider.js'),
      load('core/embed/embed-run.js'),
      load('core/embed/mode-search.js'),
      load('core/embed/semantic.js'),
      load('core/retrieval/selectors.js'),
    ]);
  const choice = embedWith === 'offline' ? { provider: 'offline' } : { url: embedWith, model: value('--embed-model') };
  const inner = createEmbeddingProvider(choice, process.env);
  const { provider, stats } = cachedProvider(inner, embedCacheDir);
  console.log(`vectors: ${stats.file} (${stats.cached} cached)`);
  return { inner, provider, stats, embedStore, searchWithMode, rankSemantic, userOnly: parseSelectors(['user']) };
}

/** Both rankings of one question, for bench/lme-fusion.mjs to fuse offline. */
async function rankings(db, q, userOnly, lexical) {
  const external = db.prepare('SELECT external_id FROM sessions WHERE id = ?').pluck();
  const [vector] = await embedding.provider.embed([q.question]);
  const semantic = (options) =>
    embedding
      .rankSemantic(db, embedding.provider.model, vector, { query: q.question, ...options }, 50)
      .map((h) => [external.get(h.sessionId), Math.round(h.score * 1000) / 1000]);
  return {
    id: q.question_id,
    type: q.question_type,
    half: createHash('sha1').update(q.question_id).digest()[0] & 1 ? 'b' : 'a',
    userOnly,
    want: q.answer_session_ids,
    lexical: lexical.sessions.map((s) => [s.id, s.hits[0]?.score ?? 0, s.match ?? 'block', s.missing?.length ?? 0]),
    semantic: semantic({}),
    semanticUser: semantic({ in: embedding.userOnly }),
  };
}

/** The question with one typo (see --typos), or as it is when no word qualifies. */
function withTypo(q) {
  const words = q.question.match(/[A-Za-z]+/g) ?? [];
  const word = words
    .filter((w) => w.length >= 5 && !STOP_WORDS.has(w.toLowerCase()))
    .reduce((a, w) => (w.length > a.length ? w : a), '');
  if (!word) return q.question;
  const span = word.length - 2;
  const start = createHash('sha1').update(q.question_id).digest()[0] % span;
  for (let k = 0; k < span; k++) {
    const i = 1 + ((start + k) % span);
    if (word[i] === word[i + 1]) continue;
    const typo = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    return q.question.replace(new RegExp(`\\b${word}\\b`), typo);
  }
  return q.question;
}

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
      if (embedding) {
        await embedding.embedStore(store.db, embedding.provider);
        const grown = store.db
          .prepare(
            `SELECT (SELECT SUM(pgsize) FROM dbstat WHERE name IN ('block_vectors', 'block_vectors_hash')
              OR name LIKE 'sqlite_autoindex_block_vectors%'), (SELECT COUNT(*) FROM block_vectors)`,
          )
          .raw()
          .get();
        embedding.stats.bytes = (embedding.stats.bytes ?? 0) + grown[0];
        embedding.stats.vectors = (embedding.stats.vectors ?? 0) + grown[1];
      }
      const out = {};
      if (rankingsPath && embedding) {
        const lexical = search(store.db, { query: q.question, limit: 50, maxPerSession: 1 });
        appendFileSync(rankingsPath, `${JSON.stringify(await rankings(store.db, q, userOnly, lexical))}\n`);
      }
      for (const mode of modes) {
        const options = { query: typos ? withTypo(q) : q.question, limit: 50, maxPerSession: 1 };
        const t0 = performance.now();
        const result =
          mode === 'lexical'
            ? search(store.db, options)
            : await embedding.searchWithMode(store.db, { ...options, mode }, embedding.provider);
        const ms = performance.now() - t0;
        const ranked = result.sessions.map((s) => s.id);
        const want = new Set(q.answer_session_ids);
        const at = ranked.findIndex((id) => want.has(id));
        const evidence = {};
        for (const k of [1, 5, 10, 20])
          evidence[k] = ranked.slice(0, k).filter((id) => want.has(id)).length / want.size;
        out[mode] = { rank: at >= 0 && at < 50 ? at + 1 : 0, ms, evidence, top: ranked.slice(0, 5) };
      }
      return out;
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
  .filter((q) => types.length === 0 || types.includes(q.question_type))
  .filter((q) => half === '' || (createHash('sha1').update(q.question_id).digest()[0] & 1 ? 'b' : 'a') === half);
if (seed !== '') {
  // mulberry32: the same seed gives the same questions on every machine.
  let state = Number(seed) | 0;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = questions.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [questions[i], questions[j]] = [questions[j], questions[i]];
  }
}
if (perType > 0) questions = stratified(questions, perType);
if (limit > 0) questions = questions.slice(0, limit);

const bucket = () => ({ n: 0, r1: 0, r5: 0, r10: 0, r20: 0, mrr: 0, ev: { 1: 0, 5: 0, 10: 0, 20: 0 } });
const p = (a, n) => `${((100 * a) / Math.max(1, n)).toFixed(1)}%`.padStart(7);
const row = (name, b) =>
  `${name.padEnd(28)} ${String(b.n).padStart(4)} ${p(b.r1, b.n)} ${p(b.r5, b.n)} ${p(b.r10, b.n)} ` +
  `${p(b.r20, b.n)}   ${(b.mrr / Math.max(1, b.n)).toFixed(3)}`;

console.log(`dist: ${dist}\ndata: ${dataDir} (${questions.length} non-abstention questions)`);
if (typos) console.log(`with one typo each (--typos), e.g. ${questions.slice(0, 2).map(withTypo).join(' / ')}`);
if (embedding && flag('--query-ms')) {
  // What hybrid adds to a search before its scan: one query embedded by the model, never from the cache.
  const times = [];
  await embedding.inner.embed(['warm up']);
  for (const q of questions) {
    const t0 = performance.now();
    await embedding.inner.embed([q.question]);
    times.push(performance.now() - t0);
  }
  console.log(
    `query embedding (${embedding.inner.model}, in-process): p50 ${pct(times, 50).toFixed(1)} ms · ` +
      `p95 ${pct(times, 95).toFixed(1)} ms`,
  );
}
const misses = [];
for (const userOnly of variants) {
  const acc = Object.fromEntries(modes.map((m) => [m, { total: bucket(), byType: new Map(), times: [] }]));
  const started = performance.now();
  const sentBefore = embedding?.stats.sent ?? 0;
  const msBefore = embedding?.stats.ms ?? 0;
  for (const [i, q] of questions.entries()) {
    const byMode = await runQuestion(q, userOnly);
    for (const mode of modes) {
      const r = byMode[mode];
      const a = acc[mode];
      a.times.push(r.ms);
      if (!a.byType.has(q.question_type)) a.byType.set(q.question_type, bucket());
      for (const b of [a.total, a.byType.get(q.question_type)]) {
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
      if (r.rank !== 1)
        misses.push({ id: q.question_id, type: q.question_type, q: q.question, rank: r.rank, userOnly, mode });
    }
    const ranks = modes.map((m) => `${m}=${byMode[m].rank}`).join(' ');
    if (verbose) console.log(`${String(i + 1).padStart(4)} ${q.question_type.padEnd(26)} ${ranks} ${q.question_id}`);
  }
  const wall = ((performance.now() - started) / 1000).toFixed(0);
  for (const mode of modes) {
    const { total, byType, times } = acc[mode];
    const turns = userOnly ? 'user turns only' : 'user and assistant turns';
    console.log(`\n${turns} · --mode ${mode} · wall ${wall} s`);
    console.log(
      `search p50 ${pct(times, 50).toFixed(1)} ms · p95 ${pct(times, 95).toFixed(1)} ms ` +
        '(in-process, 1 search/question)',
    );
    console.log(`${'type'.padEnd(28)} ${'n'.padStart(4)}   hit@1   hit@5  hit@10  hit@20   MRR`);
    for (const t of [...byType.keys()].sort()) console.log(row(t, byType.get(t)));
    console.log(row('TOTAL', total));
    const ev = (k) => `${((100 * total.ev[k]) / Math.max(1, total.n)).toFixed(1)}%`.padStart(7);
    console.log(`${'evidence-recall@1/5/10/20'.padEnd(33)} ${ev(1)} ${ev(5)} ${ev(10)} ${ev(20)}`);
  }
  if (embedding) {
    const sent = embedding.stats.sent - sentBefore;
    const secs = (embedding.stats.ms - msBefore) / 1000;
    console.log(`embedded ${sent} new texts in ${secs.toFixed(1)} s (${(sent / Math.max(secs, 1e-9)).toFixed(1)}/s)`);
    const { bytes, vectors } = embedding.stats;
    console.log(`store growth: ${(bytes / vectors).toFixed(0)} bytes per passage (vector table and index, dbstat)`);
  }
}
if (missesPath) writeFileSync(missesPath, misses.map((m) => JSON.stringify(m)).join('\n') + '\n');
