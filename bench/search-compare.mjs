// Builds side by side on one store: first the same results (search() JSON, three option sets) for a fixed
// list of keyword queries and questions, then p50 of each build's fresh CLI search, in-process search and
// (--mcp) MCP search, interleaved query by query with `node -e 0` so every build sees the same load.
// Usage: node bench/search-compare.mjs --home STRATA_HOME [--queries fixtures|lme] [--build DIR]...
//   [--rounds N] [--mcp] [--check-only]
// A build is a checkout with dist/ and bin/ built (default: this one); --queries fixtures fits stores of
// the corpus bench/corpus.mjs resamples (bench/retrieval.mjs), lme the LongMemEval-S corpus (lme-corpus.mjs).
// Exits 1 when any build's results differ from the first's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SEARCH_QUERIES, SEARCH_QUESTIONS, pct } from './shared.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const values = (name) => args.flatMap((a, i) => (a === name ? [args[i + 1]] : []));
const value = (name, fallback) => values(name)[0] ?? fallback;
const home = resolve(value('--home', ''));
const builds = (values('--build').length > 0 ? values('--build') : [join(here, '..')]).map((b) => resolve(b));
const rounds = Number(value('--rounds', 3));
const set = value('--queries', 'fixtures');

const QUERY_SETS = {
  fixtures: {
    keywords: [
      ...SEARCH_QUERIES,
      'docker',
      'streaming token',
      'playwright',
      'cargo-llvm-cov',
      'permission denied',
      'rust port',
      'lefthook',
    ],
    questions: [
      ...SEARCH_QUESTIONS,
      'which session switched from docker to apple container?',
      'how hard would it be to switch to openai and use gpt5?',
      'what was the playwright container image we used?',
      'where did we add the multiply numbers test?',
      'how did we fix the individual token streaming?',
      'what did we decide about the oracle and the execution agent?',
      'which session set up hypridle and the screensaver?',
    ],
  },
  lme: {
    keywords: [
      'asylum',
      'marathon',
      'sourdough',
      'ukulele',
      'mortgage',
      'vaccine',
      'kayak',
      'python',
      'birthday gift',
      'coffee',
      'guitar lessons',
      'yoga',
      'apartment rent',
      'vintage camera',
      'flight',
    ],
    questions: [
      'which session fixed the container crash loop?',
      'How many days did it take me to finish the marathon training?',
      'What did I buy for my sister birthday?',
      'What was the name of the ukulele teacher I mentioned?',
      'How much did I pay for the mortgage refinance?',
      'When did I get my flu vaccine?',
      'Where did I go kayaking last summer?',
      'What breed is my neighbor dog?',
      'How long have I been practicing yoga?',
      'What is the name of my favorite coffee shop?',
      'Which vintage camera did I buy at the flea market?',
      'How many hours did I spend on the python course?',
      'What recipe did I try for the sourdough bread?',
      'What did I decide about the apartment lease?',
      'Who recommended the sci-fi book I am reading?',
    ],
  },
};

/**
 * What the results are checked on: the defaults, the top 50 the LongMemEval bench reads, tight output, and
 * a filter (every match ranked, not the newest window); regular expressions on the first two keywords.
 */
const OPTION_SETS = [{}, { limit: 50 }, { maxPerSession: 1, context: 4, limit: 5 }, { after: '2000-01-01' }];

const { NODE_EXTRA_CA_CERTS: _certs, ...cleanEnv } = process.env;
const label = (b) => basename(b);
const time = (fn) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

async function loadBuild(dir) {
  const load = (p) => import(pathToFileURL(join(dir, 'dist', p)).href);
  const [{ openStore }, { search }] = await Promise.all([load('store/db.js'), load('core/retrieval/search.js')]);
  return { dir, store: openStore(join(home, 'strata.db')), search, load };
}

function check(loaded, queries, regexes) {
  let differ = 0;
  const cases = [
    ...queries.flatMap((q) => OPTION_SETS.map((options) => [q, options])),
    ...regexes.map((q) => [q, { regex: true, ignoreCase: true, limit: 5 }]),
  ];
  for (const [q, options] of cases) {
    const [first, ...rest] = loaded.map((b) => JSON.stringify(b.search(b.store.db, { query: q, ...options })));
    rest.forEach((r, i) => {
      if (r === first) return;
      differ++;
      console.log(`DIFFERS ${label(loaded[i + 1].dir)}: ${q} ${JSON.stringify(options)}`);
    });
  }
  return differ;
}

function fresh(dir, q) {
  const r = spawnSync(process.execPath, [join(dir, 'bin/strata.cjs'), 'search', q], {
    env: { ...cleanEnv, STRATA_HOME: home, TZ: 'UTC', NO_COLOR: '1' },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`strata search ${q}: ${r.stderr}`);
}

async function mcpTimes(dir) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { recordLastIngest } = await import(pathToFileURL(join(dir, 'dist/core/ingest/refresh.js')).href);
  const empty = mkdtempSync(join(tmpdir(), 'strata-compare-home-'));
  const env = { ...cleanEnv, HOME: empty, STRATA_HOME: home, TZ: 'UTC', NO_COLOR: '1' };
  recordLastIngest(env, Date.now());
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(dir, 'bin/strata.cjs'), 'mcp', '--refresh', '3600'],
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'compare', version: '1.0.0' });
  await client.connect(transport);
  return {
    async time(q) {
      const t = performance.now();
      await client.callTool({ name: 'search', arguments: { query: q } });
      return performance.now() - t;
    },
    close: async () => {
      await client.close();
      rmSync(empty, { recursive: true, force: true });
    },
  };
}

const p50 = (xs) => `${pct(xs, 50).toFixed(1).padStart(7)} ms`;
const { keywords, questions } = QUERY_SETS[set];
const loaded = await Promise.all(builds.map(loadBuild));
console.log(`store ${home}; queries: ${set} (${keywords.length} keywords, ${questions.length} questions)`);
const differ = check(loaded, [...keywords, ...questions], keywords.slice(0, 2));
console.log(
  loaded.length > 1 ? `results: ${differ === 0 ? 'identical' : `${differ} differ`}` : 'results: one build only',
);
if (!args.includes('--check-only')) {
  const kinds = { keyword: keywords, question: questions };
  const t = new Map(builds.map((b) => [b, { fresh: {}, inproc: {}, mcp: {} }]));
  const node = [];
  for (const b of loaded) for (const q of [...keywords, ...questions]) b.search(b.store.db, { query: q });
  for (const b of builds) fresh(b, keywords[0]); // writes each build's compile cache
  const mcp = args.includes('--mcp') ? await Promise.all(builds.map((b) => mcpTimes(b))) : [];
  for (let r = 0; r < rounds; r++) {
    for (const [kind, qs] of Object.entries(kinds)) {
      for (const q of qs) {
        node.push(time(() => spawnSync(process.execPath, ['-e', '0'], { env: cleanEnv })));
        for (const [i, b] of loaded.entries()) {
          const s = t.get(b.dir);
          (s.fresh[kind] ??= []).push(time(() => fresh(b.dir, q)));
          for (let k = 0; k < 2; k++) (s.inproc[kind] ??= []).push(time(() => b.search(b.store.db, { query: q })));
          if (mcp[i]) (s.mcp[kind] ??= []).push(await mcp[i].time(q));
        }
      }
    }
  }
  for (const m of mcp) await m.close();
  console.log(`node -e 0: p50 ${p50(node)}  (n=${node.length})`);
  for (const b of builds) {
    const s = t.get(b);
    for (const kind of Object.keys(kinds)) {
      const over = (pct(s.fresh[kind], 50) - pct(node, 50)).toFixed(0);
      console.log(
        `${label(b).padEnd(14)} ${kind.padEnd(8)} fresh ${p50(s.fresh[kind])} (+${over} over node)` +
          `  in-process ${p50(s.inproc[kind])}${s.mcp[kind] ? `  MCP ${p50(s.mcp[kind])}` : ''}`,
      );
    }
  }
}
for (const b of loaded) b.store.close();
process.exitCode = differ === 0 ? 0 : 1;
