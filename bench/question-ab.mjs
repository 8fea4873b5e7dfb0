// Two builds' in-process question search in one process, interleaved question by question (each build
// first in turn), on their own stores of the LongMemEval-S corpus: each build ingests its own (bench/
// retrieval.mjs with LME_DATA and BENCH_DIR leaves it in <BENCH_DIR>/store-lme), since an older build
// cannot open a newer schema. Prints wall and CPU p50 per build and the ratio.
// Usage: node bench/question-ab.mjs --a DIST:STORE --b DIST:STORE [--every N] [--rounds R]  (LME_DATA set)
import { pathToFileURL } from 'node:url';
import { loadLmeCorpus } from './lme-corpus.mjs';

const args = process.argv.slice(2);
const value = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const every = Number(value('--every', 31));
const rounds = Number(value('--rounds', 3));
if (!process.env.LME_DATA || !value('--a') || !value('--b')) {
  console.error('usage: LME_DATA=<dir> node bench/question-ab.mjs --a DIST:STORE --b DIST:STORE [--every N]');
  process.exit(2);
}
const { questions } = loadLmeCorpus(process.env.LME_DATA);
const picked = questions.filter((_, i) => i % every === 0);
const builds = [];
for (const name of ['--a', '--b']) {
  const [dist, store] = value(name).split(':');
  const { openStore } = await import(pathToFileURL(`${dist}/store/db.js`).href);
  const { search } = await import(pathToFileURL(`${dist}/core/retrieval/search.js`).href);
  const b = { name: name.slice(2), db: openStore(store, { readonly: true }).db, search, wall: [], cpu: [] };
  for (const q of picked) search(b.db, { query: q });
  builds.push(b);
}
for (let r = 0; r < rounds; r++) {
  for (const q of picked) {
    for (const b of r % 2 ? [...builds].reverse() : builds) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      b.search(b.db, { query: q });
      b.wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      b.cpu.push((c.user + c.system) / 1000);
    }
  }
}
const p50 = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const b of builds)
  console.log(`${b.name}: wall p50 ${p50(b.wall).toFixed(1)} ms, CPU p50 ${p50(b.cpu).toFixed(1)} ms`);
console.log(
  `${picked.length} questions × ${rounds}; b / a wall p50: ${(p50(builds[1].wall) / p50(builds[0].wall)).toFixed(2)}`,
);
