// Fusion rules compared on the session rankings bench/longmemeval.mjs --rankings FILE wrote (lexical and
// semantic top 50 per question): no store, no model, so a rule costs milliseconds to try. Each rule is
// reported per half (a: tune, b: confirm; by sha1 of the question id) and per question type.
//
// Usage: node bench/lme-fusion.mjs FILE [--rules name,name] [--types]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const value = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l))
  .filter((r) => !r.userOnly);

/** Σ w/(k + rank) over the lists, best first; ties keep the first list's order. */
function rrf(lists, weights, k = 60) {
  const scores = new Map();
  lists.forEach((list, li) =>
    list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + weights[li] / (k + i + 1))),
  );
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

const ids = (list) => list.map((x) => x[0]);
/** Lexical's top n reordered by the fusion, the rest as lexical ranked them, then semantic-only sessions. */
const rerankTop = (r, sem, n, w) => {
  const lex = ids(r.lexical);
  const top = rrf([lex.slice(0, n), sem], [1, w]).filter((id) => lex.slice(0, n).includes(id));
  return [...top, ...lex.slice(n), ...sem.filter((id) => !lex.includes(id))];
};
/** Lexical "weak": nothing found, or its first session lacks some of the question's words. */
const weak = (r) => r.lexical.length === 0 || r.lexical[0][2] === 'partial';

const rules = {
  lexical: (r) => ids(r.lexical),
  semantic: (r) => ids(r.semantic),
  'semantic-user': (r) => ids(r.semanticUser),
  'rrf60 (today)': (r) => rrf([ids(r.lexical), ids(r.semantic)], [1, 1]),
  'rrf60 user': (r) => rrf([ids(r.lexical), ids(r.semanticUser)], [1, 1]),
};
for (const w of [0.9, 0.8, 0.7, 0.6, 0.5, 0.3, 0.1]) {
  rules[`rrf60 w=${w}`] = (r) => rrf([ids(r.lexical), ids(r.semantic)], [1, w]);
  rules[`rrf60 user w=${w}`] = (r) => rrf([ids(r.lexical), ids(r.semanticUser)], [1, w]);
}
for (const n of [3, 5, 10])
  for (const w of [1, 0.5]) rules[`rerank top${n} w=${w}`] = (r) => rerankTop(r, ids(r.semantic), n, w);
rules['rrf60 when weak'] = (r) => (weak(r) ? rrf([ids(r.lexical), ids(r.semantic)], [1, 1]) : ids(r.lexical));
rules['lexical, then semantic'] = (r) => [...new Set([...ids(r.lexical), ...ids(r.semantic)])];

/** Non-abstention questions per type in all of LongMemEval-S: the sample's totals reweighted to them. */
const SHARE = {
  'knowledge-update': 72,
  'multi-session': 121,
  'single-session-assistant': 56,
  'single-session-preference': 30,
  'single-session-user': 64,
  'temporal-reasoning': 127,
};
const stat = () => ({ n: 0, h1: 0, h5: 0, h10: 0, mrr: 0 });
function score(rule, subset) {
  const total = stat();
  const byType = new Map();
  for (const r of subset) {
    const ranked = rule(r).slice(0, 50);
    const want = new Set(r.want);
    const at = ranked.findIndex((id) => want.has(id)) + 1;
    if (!byType.has(r.type)) byType.set(r.type, stat());
    for (const s of [total, byType.get(r.type)]) {
      s.n++;
      if (at > 0) {
        s.mrr += 1 / at;
        s.h1 += at === 1;
        s.h5 += at <= 5;
        s.h10 += at <= 10;
      }
    }
  }
  return { total, byType };
}
const pc = (a, n) => `${((100 * a) / Math.max(1, n)).toFixed(1)}`.padStart(6);
/** hit@1 and hit@5 as if each type weighed what it weighs among the 470. */
function weighted(byType) {
  let w = 0;
  const sum = { h1: 0, h5: 0 };
  for (const [t, s] of byType) {
    w += SHARE[t];
    sum.h1 += (SHARE[t] * s.h1) / s.n;
    sum.h5 += (SHARE[t] * s.h5) / s.n;
  }
  return `${pc(sum.h1, w)} ${pc(sum.h5, w)}`;
}
const line = (s) => `${pc(s.h1, s.n)} ${pc(s.h5, s.n)} ${pc(s.h10, s.n)} ${(s.mrr / Math.max(1, s.n)).toFixed(3)}`;

const chosen = value('--rules')?.split(',') ?? Object.keys(rules);
const halves = { a: rows.filter((r) => r.half === 'a'), b: rows.filter((r) => r.half === 'b'), all: rows };
console.log(`${rows.length} questions (a ${halves.a.length}, b ${halves.b.length}) · hit@1 hit@5 hit@10 MRR`);
console.log(
  `${'rule'.padEnd(24)} | ${'half a'.padEnd(27)} | ${'half b'.padEnd(27)} | ${'all'.padEnd(27)} | 470-weighted`,
);
for (const name of chosen) {
  const cells = ['a', 'b', 'all'].map((h) => line(score(rules[name], halves[h]).total));
  console.log(`${name.padEnd(24)} | ${cells.join(' | ')} | ${weighted(score(rules[name], rows).byType)}`);
}
if (args.includes('--types'))
  for (const name of chosen) {
    const { byType } = score(rules[name], rows);
    console.log(`\n${name}`);
    for (const [t, s] of [...byType.entries()].sort())
      console.log(`  ${t.padEnd(26)} ${String(s.n).padStart(3)} ${line(s)}`);
  }
